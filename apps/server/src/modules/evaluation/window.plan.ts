/**
 * The window query (docs/monitoring.md "The window", Records mode): the newest `sample_size` part
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
 *   station), challenge_ranges (TIME: records from `from` to `to` left out; PART: the base
 *   station's records from part from_part_id's first to part to_part_id's last left out; a part
 *   the station has no record of leaves nothing out). part_groups has no table yet and is ignored.
 *
 * Several windows at once (loadWindows, the worker's claimed batch): the lines, signals, group
 * members and SPC limits are read once for the batch, and monitors whose records are the same —
 * same base station, required stations and filter conditions; they may differ in signals and
 * sample size — share one query: the largest sample size with the union of their columns, each
 * window being its newest sample_size records and its own columns of that result. The newest-first
 * order (ts, part id, op) is total for a station, so that prefix is exactly what the monitor's own
 * query returns.
 */

import {
  LINE_MESSAGES,
  MONITOR_MESSAGES,
  SIGNAL_MESSAGES,
  type TChallengeRange,
  type TMonitorType,
  type TStoredMonitorFilter,
} from "@linewatch/contracts";
import { parseLimitFormula } from "@linewatch/stats";
import { inArray, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { lines, signalGroupMembers, signals, spcLimits } from "../../db/schema/index.js";
import type { LimitFormulas, WindowSignal } from "./evaluate.js";

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
  type: TMonitorType;
  filter: TStoredMonitorFilter;
  useExcludedPartIds?: boolean;
  useExcludedModelNumbers?: boolean;
  /** Instead of the newest sample_size records (what a monitor evaluates). */
  period?: WindowPeriod;
};

/** The filter of a one-signal read (capability view, SPC limit suggestion): no other condition. */
export const singleSignalFilter = (signalId: string, sampleSize: number): TStoredMonitorFilter => ({
  signal_uuids: [signalId],
  signal_group_uuids: [],
  part_attributes: [],
  sample_size: sampleSize,
  pass_fail_filter: [],
  evaluation_ratio: 0,
  part_numbers: [],
  part_groups: [],
});

type LineRow = typeof lines.$inferSelect;
type SignalRow = typeof signals.$inferSelect;
type LimitRow = typeof spcLimits.$inferSelect;

/** What the window queries read besides the records, for a set of queries. */
export type Catalog = {
  lines: Map<string, LineRow>;
  signalsByLine: Map<string, SignalRow[]>;
  /** group id → member signal ids */
  members: Map<string, string[]>;
  /** signal id → its SPC limit rows, by model number */
  limits: Map<string, LimitRow[]>;
};

/** A value read from a record: a slot of the newest record of the part at a station. */
export type Cell = { stationId: string; storage: "num" | "text"; slot: number };

/**
 * The records of a window, without the columns read from them: equal row sets (compared by their
 * JSON) give equal records in the same order. Lists are sorted sets (the SQL tests membership).
 */
export type RowSet = {
  customerId: string;
  lineId: string;
  baseStation: string;
  /** Other stations a part must have a record at (those of the selected signals). */
  required: string[];
  partNumbers: string[];
  /** pass_fail_filter: every one of these result signals classifies as one of `results`. */
  resultSignals: { id: string; cell: Cell }[];
  results: string[];
  attributes: { cell: Cell; values: string[] }[];
  excludedPartIds: string[] | null;
  excludedModelNumbers: string[] | null;
  op: "FIRST" | "LAST" | null;
  /** cap: stretches left out (requirements.md monitor-forms §2 challenge range modes), or null. */
  challengeRanges: TChallengeRange[] | null;
  from: string | null;
  to: string | null;
  /** Records strictly after `from` (a backtest's period, read after the window before it). */
  fromExclusive?: boolean;
};

/** A window to read: its row set, its columns (selected then references) and how many records. */
export type Plan = {
  signals: SignalRow[];
  references: SignalRow[];
  limits?: Record<string, LimitFormulas>;
  rowSet: RowSet;
  columns: Cell[];
  limit: number;
  oldestFirst: boolean;
};

const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
export const inList = (expr: SQL, values: readonly string[]) =>
  sql`${expr} in (select jsonb_array_elements_text(${json(values)}))`;
const sortedSet = (xs: readonly string[]) => [...new Set(xs)].sort();

export const toWindowSignal = (s: SignalRow): WindowSignal => ({
  id: s.id,
  name: s.friendlyName || s.name,
  stationId: s.stationId,
  singleSide: s.singleSide,
});
const cellOf = (s: SignalRow): Cell => ({ stationId: s.stationId, storage: s.storage, slot: s.slot });
export const cellKey = (c: Cell) => `${c.stationId}:${c.storage}:${c.slot}`;

/** Reads the lines, signals, group members and SPC limits the queries need (four statements at most). */
export async function loadCatalog(db: Tx, queries: readonly WindowQuery[]): Promise<Catalog> {
  const lineIds = [...new Set(queries.map((q) => q.lineId))];
  const groupIds = [...new Set(queries.flatMap((q) => q.filter.signal_group_uuids))];
  const [lineRows, signalRows, memberRows] = await Promise.all([
    lineIds.length ? db.select().from(lines).where(inArray(lines.id, lineIds)) : [],
    lineIds.length ? db.select().from(signals).where(inArray(signals.lineId, lineIds)) : [],
    groupIds.length
      ? db
          .select({ groupId: signalGroupMembers.groupId, signalId: signalGroupMembers.signalId })
          .from(signalGroupMembers)
          .where(inArray(signalGroupMembers.groupId, groupIds))
      : [],
  ]);
  const catalog: Catalog = {
    lines: new Map(lineRows.map((l) => [l.id, l])),
    signalsByLine: new Map(),
    members: new Map(),
    limits: new Map(),
  };
  for (const s of signalRows)
    catalog.signalsByLine.set(s.lineId, [...(catalog.signalsByLine.get(s.lineId) ?? []), s]);
  for (const m of memberRows)
    catalog.members.set(m.groupId, [...(catalog.members.get(m.groupId) ?? []), m.signalId]);
  // cap: the limits of each cap query's signal (the first selected one).
  const capSignals = new Set<string>();
  for (const q of queries) {
    if (q.type !== "cap") continue;
    try {
      const first = selectedSignals(catalog, q)[0];
      if (first) capSignals.add(first.id);
    } catch {
      // reported by planWindow
    }
  }
  if (capSignals.size) {
    const rows = await db
      .select()
      .from(spcLimits)
      .where(inArray(spcLimits.signalId, [...capSignals]))
      .orderBy(spcLimits.signalId, spcLimits.modelNumber);
    for (const r of rows) catalog.limits.set(r.signalId, [...(catalog.limits.get(r.signalId) ?? []), r]);
  }
  return catalog;
}

function lineOf(catalog: Catalog, q: WindowQuery) {
  const line = catalog.lines.get(q.lineId);
  if (!line || line.customerId !== q.customerId) throw new WindowError("NOT_FOUND", LINE_MESSAGES.notFound);
  const lineSignals = (catalog.signalsByLine.get(line.id) ?? []).filter((s) => s.customerId === q.customerId);
  return { line, lineSignals, byId: new Map(lineSignals.map((s) => [s.id, s])) };
}

/**
 * A signal a monitor watches: an active measurement. One switched off or given another entity type
 * in Signal Management after the monitor was saved is left out, and the monitor runs on the others
 * (issue #15; its form and the line overview say so).
 */
const isMonitored = (s: SignalRow) => s.isSignalActive && s.entityType === "MEASUREMENT";

/** Selected signals: the listed ones in order, then group members by name. */
function selectedSignals(catalog: Catalog, q: WindowQuery): SignalRow[] {
  const { filter } = q;
  const { byId } = lineOf(catalog, q);
  const selected: SignalRow[] = [];
  for (const id of filter.signal_uuids) {
    const s = byId.get(id);
    if (!s) throw new WindowError("NOT_FOUND", SIGNAL_MESSAGES.notFound);
    if (!isMonitored(s)) continue;
    if (s.storage !== "num") throw new WindowError("INVALID", `Signal ${s.name} is not numeric`);
    if (!selected.includes(s)) selected.push(s);
  }
  if (filter.signal_group_uuids.length) {
    const fromGroups = filter.signal_group_uuids
      .flatMap((g) => catalog.members.get(g) ?? [])
      .map((id) => byId.get(id))
      .filter((s): s is SignalRow => !!s && isMonitored(s) && s.storage === "num" && !selected.includes(s))
      .sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    selected.push(...new Set(fromGroups));
  }
  return selected;
}

/** The window of one query as a plan, or null when no signal is selected (an empty window). */
export function planWindow(catalog: Catalog, q: WindowQuery): Plan | null {
  const { filter } = q;
  const { line, lineSignals, byId } = lineOf(catalog, q);
  const selected = selectedSignals(catalog, q);
  if (selected.length === 0) return null;

  // cap: the SPC limits of the signal and the signals their formulas reference.
  const references: SignalRow[] = [];
  let limits: Record<string, LimitFormulas> | undefined;
  if (q.type === "cap") {
    const signal = selected[0] as SignalRow;
    const rows = (catalog.limits.get(signal.id) ?? []).filter((r) => r.customerId === q.customerId);
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

  const baseStation = (selected[0] as SignalRow).stationId;
  const rowSet: RowSet = {
    customerId: q.customerId,
    lineId: line.id,
    baseStation,
    required: sortedSet(selected.map((s) => s.stationId).filter((st) => st !== baseStation)),
    partNumbers: sortedSet(filter.part_numbers),
    resultSignals: [],
    results: [],
    attributes: [],
    excludedPartIds: null,
    excludedModelNumbers: null,
    op: null,
    challengeRanges: null,
    from: q.period?.from ? q.period.from.toISOString() : null,
    to: q.period?.to ? q.period.to.toISOString() : null,
  };

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
    rowSet.resultSignals = resultSignals
      .map((s) => ({ id: s.id, cell: cellOf(s) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    rowSet.results = sortedSet(filter.pass_fail_filter);
  }

  for (const pa of filter.part_attributes) {
    if (pa.selected_attribute_values.length === 0) continue;
    const s = byId.get(pa.attribute_uuid);
    if (!s) throw new WindowError("NOT_FOUND", MONITOR_MESSAGES.partAttributesNotFound);
    rowSet.attributes.push({ cell: cellOf(s), values: sortedSet(pa.selected_attribute_values) });
  }
  rowSet.attributes.sort((a, b) => {
    const x = JSON.stringify(a);
    const y = JSON.stringify(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });

  if (q.type === "cap") {
    if (q.useExcludedPartIds) rowSet.excludedPartIds = sortedSet(line.excludedPartIds);
    if (q.useExcludedModelNumbers) rowSet.excludedModelNumbers = sortedSet(line.excludedModelNumbers);
    const op = filter.op_count ?? "ALL";
    if (op !== "ALL") rowSet.op = op;
    if (filter.challenge_ranges?.length) rowSet.challengeRanges = filter.challenge_ranges;
  }

  return {
    signals: selected,
    references,
    ...(limits ? { limits } : {}),
    rowSet,
    columns: [...selected, ...references].map(cellOf),
    limit: q.period ? q.period.limit : filter.sample_size,
    oldestFirst: q.period?.anchor === "start",
  };
}
