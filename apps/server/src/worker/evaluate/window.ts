/**
 * The window query (monitoring.md "The window", Records mode): the newest `sample_size` part
 * records of a monitor's line that match its filter, with the selected signals' values. A preview
 * may ask for a period instead (WindowPeriod): the same query with time bounds, its own limit and,
 * anchored at the start, the oldest records rather than the newest.
 *
 * - Signals: signal_uuids plus the members of signal_group_uuids, numeric ones only, on the
 *   monitor's line and customer (an id from elsewhere is "not found").
 * - Base station: the station of the first selected signal; the window counts its records and a
 *   row's time is that record's time. Signals at other stations (an MVD across stations, cap limit
 *   references, attributes, results) are read from the newest record (latest ts, then highest op)
 *   of the SAME part id at that station; a part with no record at a monitored signal's station is
 *   left out of the window.
 * - Filters: part_numbers (model numbers), pass_fail_filter through the result classifications of
 *   the selected signals' result signals (the stations' RESULT signals when none is associated;
 *   every one must classify as one of the chosen results), part_attributes (text value in the
 *   selected values). cap only: use_excluded_part_ids (the line's excluded part ids and challenge
 *   parts), use_excluded_model_numbers (the line's excluded and challenge model numbers),
 *   op_count FIRST / LAST (only the lowest / highest (op, ts) record of the part at the base
 *   station). part_groups has no table yet and is ignored.
 */
import { parseLimitFormula } from "@linewatch/stats";
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { rowsOf, type Tx } from "../../db/client.js";
import {
  lines,
  resultClassifications,
  signalGroupMembers,
  signals,
  spcLimits,
} from "../../db/schema/index.js";
import type { LimitFormulas, MonitorType, Window, WindowSignal } from "./evaluate.js";
import type { MonitorFilter } from "./filter.js";

/** A request the window cannot answer: unknown line or signal (NOT_FOUND) or an unusable filter. */
export class WindowError extends Error {
  constructor(
    readonly code: "NOT_FOUND" | "INVALID",
    message: string,
  ) {
    super(message);
    this.name = "WindowError";
  }
}

/**
 * A period of records (monitor form previews): at most `limit` records with from ≤ time ≤ to
 * (null = open), the newest of them (anchor end) or the oldest (anchor start).
 */
export type WindowPeriod = { from: Date | null; to: Date | null; limit: number; anchor: "start" | "end" };

export type WindowQuery = {
  customerId: string;
  lineId: string;
  type: MonitorType;
  filter: MonitorFilter;
  useExcludedPartIds?: boolean;
  useExcludedModelNumbers?: boolean;
  /** Instead of the newest sample_size records (what a monitor evaluates). */
  period?: WindowPeriod;
};

type SignalRow = typeof signals.$inferSelect;

const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
const inList = (expr: SQL, values: readonly string[]) =>
  sql`${expr} in (select jsonb_array_elements_text(${json(values)}))`;

/** The value of a signal in a record alias, as SQL: num_values / text_values are 1-based in SQL. */
const numOf = (alias: string, s: SignalRow) => sql`${sql.raw(alias)}.num_values[${s.slot + 1}::int]`;
const textOf = (alias: string, s: SignalRow) =>
  s.storage === "text"
    ? sql`${sql.raw(alias)}.text_values[${s.slot + 1}::int]`
    : sql`(${sql.raw(alias)}.num_values[${s.slot + 1}::int])::text`;

const toWindowSignal = (s: SignalRow): WindowSignal => ({
  id: s.id,
  name: s.friendlyName || s.name,
  stationId: s.stationId,
  singleSide: s.singleSide,
});

/** Loads the window of a monitor (or of a preview's settings). */
export async function loadWindow(db: Tx, q: WindowQuery): Promise<Window> {
  const { filter } = q;
  const [line] = await db
    .select()
    .from(lines)
    .where(and(eq(lines.id, q.lineId), eq(lines.customerId, q.customerId)));
  if (!line) throw new WindowError("NOT_FOUND", "Line not found");

  const lineSignals = await db
    .select()
    .from(signals)
    .where(and(eq(signals.lineId, line.id), eq(signals.customerId, q.customerId)));
  const byId = new Map(lineSignals.map((s) => [s.id, s]));

  // Selected signals: the listed ones in order, then group members by name.
  const selected: SignalRow[] = [];
  for (const id of filter.signal_uuids) {
    const s = byId.get(id);
    if (!s) throw new WindowError("NOT_FOUND", `Signal ${id} not found on this line`);
    if (s.storage !== "num") throw new WindowError("INVALID", `Signal ${s.name} is not numeric`);
    if (!selected.includes(s)) selected.push(s);
  }
  if (filter.signal_group_uuids.length) {
    const members = await db
      .select({ signalId: signalGroupMembers.signalId })
      .from(signalGroupMembers)
      .where(inArray(signalGroupMembers.groupId, filter.signal_group_uuids));
    const fromGroups = members
      .map((m) => byId.get(m.signalId))
      .filter((s): s is SignalRow => !!s && s.storage === "num" && !selected.includes(s))
      .sort((a, b) => a.name.localeCompare(b.name));
    selected.push(...new Set(fromGroups));
  }
  if (selected.length === 0) return { signals: [], references: [], records: [] };

  // cap: the SPC limits of the signal and the signals their formulas reference.
  const references: SignalRow[] = [];
  let limits: Record<string, LimitFormulas> | undefined;
  if (q.type === "cap") {
    const signal = selected[0] as SignalRow;
    const rows = await db
      .select()
      .from(spcLimits)
      .where(and(eq(spcLimits.signalId, signal.id), eq(spcLimits.customerId, q.customerId)))
      .orderBy(asc(spcLimits.modelNumber));
    limits = {};
    for (const r of rows)
      limits[r.modelNumber] = { lsl: r.lslFormula, lcl: r.lclFormula, ucl: r.uclFormula, usl: r.uslFormula };
    if (rows.length === 0 && (signal.upperLimitSignalId || signal.lowerLimitSignalId)) {
      // No SPC limits: the limits that arrive with the records serve as spec limits.
      limits["*"] = {
        lsl: signal.lowerLimitSignalId ? `{${signal.lowerLimitSignalId}}` : null,
        lcl: null,
        ucl: null,
        usl: signal.upperLimitSignalId ? `{${signal.upperLimitSignalId}}` : null,
      };
    }
    for (const f of Object.values(limits)) {
      for (const src of [f.lsl, f.lcl, f.ucl, f.usl]) {
        if (!src) continue;
        const parsed = parseLimitFormula(src);
        if (!parsed.ok) continue; // reported by the evaluation
        for (const ref of parsed.references) {
          const s = lineSignals.find((x) => x.id.toLowerCase() === ref);
          if (s && s.storage === "num" && !references.includes(s) && !selected.includes(s))
            references.push(s);
        }
      }
    }
  }

  // Stations: the base one ("r") and one lateral join per other station needed.
  const baseStation = (selected[0] as SignalRow).stationId;
  const aliases = new Map<string, string>([[baseStation, "r"]]);
  const required = new Set<string>([baseStation]);
  const aliasOf = (stationId: string, isRequired = false) => {
    if (isRequired) required.add(stationId);
    let a = aliases.get(stationId);
    if (!a) {
      a = `s${aliases.size}`;
      aliases.set(stationId, a);
    }
    return a;
  };
  const columns: SQL[] = [];
  for (const s of selected) columns.push(numOf(aliasOf(s.stationId, true), s));
  for (const s of references) columns.push(numOf(aliasOf(s.stationId), s));

  const where: SQL[] = [sql`r.station_id = ${baseStation}`];
  const { period } = q;
  if (period?.from) where.push(sql`r.ts >= ${period.from}`);
  if (period?.to) where.push(sql`r.ts <= ${period.to}`);
  if (filter.part_numbers.length) where.push(inList(sql`r.model_number`, filter.part_numbers));

  if (filter.pass_fail_filter.length) {
    let resultSignals = [...new Set(selected.map((s) => s.resultSignalId).filter((x): x is string => !!x))]
      .map((id) => byId.get(id))
      .filter((s): s is SignalRow => !!s);
    if (resultSignals.length === 0) {
      const stationsOfSelected = new Set(selected.map((s) => s.stationId));
      resultSignals = lineSignals.filter(
        (s) => s.entityType === "RESULT" && stationsOfSelected.has(s.stationId),
      );
    }
    if (resultSignals.length === 0)
      throw new WindowError("INVALID", "pass_fail_filter needs a result signal: the signals have none");
    for (const rs of resultSignals) {
      const a = aliasOf(rs.stationId);
      where.push(sql`exists (select 1 from ${resultClassifications} rc
        where rc.signal_id = ${rs.id} and rc.value = ${textOf(a, rs)}
          and ${inList(sql`rc.result`, filter.pass_fail_filter)})`);
    }
  }

  for (const pa of filter.part_attributes) {
    if (pa.selected_attribute_values.length === 0) continue;
    const s = byId.get(pa.attribute_uuid);
    if (!s) throw new WindowError("NOT_FOUND", `Attribute ${pa.attribute_uuid} not found on this line`);
    where.push(inList(textOf(aliasOf(s.stationId), s), pa.selected_attribute_values));
  }

  if (q.type === "cap") {
    if (q.useExcludedPartIds) {
      where.push(sql`not ${inList(sql`r.part_id`, line.excludedPartIds)}`);
      where.push(
        sql`not exists (select 1 from challenge_parts cp where cp.line_id = ${line.id} and cp.part_id = r.part_id)`,
      );
    }
    if (q.useExcludedModelNumbers) {
      where.push(
        sql`(r.model_number is null or not ${inList(sql`r.model_number`, line.excludedModelNumbers)})`,
      );
      where.push(sql`not exists (select 1 from model_numbers mn
        where mn.line_id = ${line.id} and mn.value = r.model_number and mn.is_challenge)`);
    }
    const op = filter.op_count ?? "ALL";
    if (op !== "ALL") {
      const cmp = op === "FIRST" ? sql`<` : sql`>`;
      where.push(sql`not exists (select 1 from part_records x
        where x.station_id = r.station_id and x.part_id = r.part_id and (x.op, x.ts) ${cmp} (r.op, r.ts))`);
    }
  }

  const joins: SQL[] = [];
  for (const [stationId, a] of aliases) {
    if (a === "r") continue;
    const lateral = sql`lateral (select x.num_values, x.text_values from part_records x
      where x.station_id = ${stationId} and x.part_id = r.part_id
      order by x.ts desc, x.op desc limit 1) ${sql.raw(a)}`;
    joins.push(required.has(stationId) ? sql`cross join ${lateral}` : sql`left join ${lateral} on true`);
  }

  const selectCols = columns.map((c, i) => sql`${c} as ${sql.raw(`v${i}`)}`);
  const oldestFirst = period?.anchor === "start";
  const result = await db.execute(sql`
    select r.ts, r.part_id, r.model_number, ${sql.join(selectCols, sql`, `)}
    from part_records r ${sql.join(joins, sql` `)}
    where ${sql.join(where, sql` and `)}
    order by ${oldestFirst ? sql`r.ts asc, r.part_id asc, r.op asc` : sql`r.ts desc, r.part_id desc, r.op desc`}
    limit ${period ? period.limit : filter.sample_size}`);
  const rows = rowsOf<Record<string, unknown>>(result);
  const records = (oldestFirst ? rows : rows.reverse()).map((row) => ({
    ts: row.ts instanceof Date ? row.ts : new Date(String(row.ts)),
    partId: String(row.part_id),
    modelNumber: (row.model_number as string | null) ?? null,
    values: columns.map((_, i) => {
      const v = row[`v${i}`];
      return v == null ? Number.NaN : Number(v);
    }),
  }));
  return {
    signals: selected.map(toWindowSignal),
    references: references.map(toWindowSignal),
    records,
    ...(limits ? { limits } : {}),
  };
}
