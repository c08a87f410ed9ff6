/**
 * Reading windows (the planning and what a window is: window.plan.ts). One statement a window, or
 * one a shared row set: monitors of the worker's batch whose records are the same share it.
 */

import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { rowsOf, type Tx } from "../../db/client.js";
import { resultClassifications } from "../../db/schema/index.js";
import type { Window, WindowRecord } from "./evaluate.js";
import {
  type Cell,
  cellKey,
  inList,
  loadCatalog,
  type Plan,
  planWindow,
  type RowSet,
  toWindowSignal,
  type WindowQuery,
} from "./window.plan.js";

export { WindowError, type WindowPeriod, type WindowQuery } from "./window.plan.js";

/** The exact time the record's ts gives as a Date (milliseconds; the microseconds are dropped). */
function dateOfEpoch(text: string): Date {
  const dot = text.indexOf(".");
  const whole = dot < 0 ? text : text.slice(0, dot);
  const fraction = dot < 0 ? 0 : Number(`${text.slice(dot + 1)}000000`.slice(0, 6));
  const micros = Number(whole) * 1e6 + (whole.startsWith("-") ? -fraction : fraction);
  return new Date(Math.floor(micros / 1000));
}

/**
 * One station's numeric slots read together as one slice `num_values[lo:hi]` (slots 0-based), or
 * as one subscript when lo = hi.
 */
type SlotRun = { stationId: string; lo: number; hi: number };

/**
 * Slots this close share a slice. PostgreSQL detoasts the whole array for each subscript when the
 * array is stored out of line (over about 2 kB: some 250 values), so 1,000 signals of one station
 * read as 1,000 subscripts cost 1,000 detoasts a row — 17 to 36 ms a row, minutes for a backtest's
 * records (issue #27 §1, bench:stall); a slice costs one. A gap of 32 slots read for nothing costs
 * less than a detoast saved.
 */
const SLICE_GAP = 32;

/** The runs the columns are read as, and where each column is: its run and its offset in it. */
export function slotRunsOf(columns: readonly Cell[]): {
  runs: SlotRun[];
  at: { run: number; offset: number }[];
} {
  const byStation = new Map<string, number[]>();
  for (const c of columns) {
    const slots = byStation.get(c.stationId) ?? [];
    slots.push(c.slot);
    byStation.set(c.stationId, slots);
  }
  const runs: SlotRun[] = [];
  const runOf = new Map<string, number>();
  for (const [stationId, slots] of byStation) {
    const sorted = [...new Set(slots)].sort((a, b) => a - b);
    let run: SlotRun | undefined;
    for (const slot of sorted) {
      if (!run || slot - run.hi > SLICE_GAP) {
        run = { stationId, lo: slot, hi: slot };
        runs.push(run);
      } else run.hi = slot;
      runOf.set(`${stationId}:${slot}`, runs.length - 1);
    }
  }
  return {
    runs,
    at: columns.map((c) => {
      const run = runOf.get(`${c.stationId}:${c.slot}`) as number;
      return { run, offset: c.slot - (runs[run] as SlotRun).lo };
    }),
  };
}

/** A float8 value as read (number, or PostgreSQL's text); NULL and unreadable text are NaN. */
const numberOf = (v: unknown): number => (v == null ? Number.NaN : Number(v));

/**
 * A slice's values: a JS array (PGlite, node-postgres' parsers) or PostgreSQL's text of the array
 * ("{1.5,NULL,2}": float8 text holds no comma, quote or brace). A NULL array is empty.
 */
function sliceOf(v: unknown): unknown[] {
  if (v == null) return [];
  if (Array.isArray(v)) return v;
  const text = String(v);
  return text.length <= 2 ? [] : text.slice(1, -1).split(",");
}

/**
 * Reads `limit` records of a row set, oldest first, with the values of `columns` (NaN = missing):
 * one statement. The time comes as epoch seconds text (exact, and cheaper to read than a timestamp).
 */
async function readRecords(
  db: Tx,
  rs: RowSet,
  columns: readonly Cell[],
  limit: number,
  oldestFirst: boolean,
): Promise<WindowRecord[]> {
  // Stations: the base one ("r") and one lateral join per other station read.
  const aliases = new Map<string, string>([[rs.baseStation, "r"]]);
  const aliasOf = (stationId: string) => {
    let a = aliases.get(stationId);
    if (!a) {
      a = `s${aliases.size}`;
      aliases.set(stationId, a);
    }
    return a;
  };
  for (const st of rs.required) aliasOf(st);
  /** The value of a cell as SQL: num_values / text_values are 1-based in SQL. */
  const numOf = (c: Cell) => sql`${sql.raw(aliasOf(c.stationId))}.num_values[${c.slot + 1}::int]`;
  const textOf = (c: Cell) =>
    c.storage === "text"
      ? sql`${sql.raw(aliasOf(c.stationId))}.text_values[${c.slot + 1}::int]`
      : sql`(${numOf(c)})::text`;

  const where: SQL[] = [sql`r.station_id = ${rs.baseStation}`];
  if (rs.from)
    where.push(rs.fromExclusive ? sql`r.ts > ${new Date(rs.from)}` : sql`r.ts >= ${new Date(rs.from)}`);
  if (rs.to) where.push(sql`r.ts <= ${new Date(rs.to)}`);
  if (rs.partNumbers.length) where.push(inList(sql`r.model_number`, rs.partNumbers));
  for (const rsig of rs.resultSignals) {
    where.push(sql`exists (select 1 from ${resultClassifications} rc
      where rc.signal_id = ${rsig.id} and rc.value = ${textOf(rsig.cell)}
        and ${inList(sql`rc.result`, rs.results)})`);
  }
  for (const pa of rs.attributes) where.push(inList(textOf(pa.cell), pa.values));
  if (rs.excludedPartIds) {
    where.push(sql`not ${inList(sql`r.part_id`, rs.excludedPartIds)}`);
    where.push(
      sql`not exists (select 1 from challenge_parts cp where cp.line_id = ${rs.lineId} and cp.part_id = r.part_id)`,
    );
  }
  if (rs.excludedModelNumbers) {
    where.push(sql`(r.model_number is null or not ${inList(sql`r.model_number`, rs.excludedModelNumbers)})`);
    where.push(sql`not exists (select 1 from model_numbers mn
      where mn.line_id = ${rs.lineId} and mn.value = r.model_number and mn.is_challenge)`);
  }
  if (rs.op) {
    const cmp = rs.op === "FIRST" ? sql`<` : sql`>`;
    where.push(sql`not exists (select 1 from part_records x
      where x.station_id = r.station_id and x.part_id = r.part_id and (x.op, x.ts) ${cmp} (r.op, r.ts))`);
  }
  for (const range of rs.challengeRanges ?? []) {
    // monitor-forms §2 "Cap monitors": challenge range modes, time based and part based.
    if (range.mode === "TIME") {
      where.push(sql`not (r.ts >= ${new Date(range.from)} and r.ts <= ${new Date(range.to)})`);
    } else {
      const edge = (fn: SQL, partId: string) =>
        sql`(select ${fn} from part_records x where x.station_id = r.station_id and x.part_id = ${partId})`;
      where.push(sql`not coalesce(r.ts >= ${edge(sql`min(x.ts)`, range.from_part_id)}
        and r.ts <= ${edge(sql`max(x.ts)`, range.to_part_id)}, false)`);
    }
  }
  const { runs } = slotRunsOf(columns);
  const selectCols = runs.map((run, i) => {
    const values = sql`${sql.raw(aliasOf(run.stationId))}.num_values`;
    return run.lo === run.hi
      ? sql`${values}[${run.lo + 1}::int] as ${sql.raw(`v${i}`)}`
      : sql`${values}[${run.lo + 1}::int:${run.hi + 1}::int] as ${sql.raw(`v${i}`)}`;
  });

  const required = new Set(rs.required);
  const joins: SQL[] = [];
  for (const [stationId, a] of aliases) {
    if (a === "r") continue;
    const lateral = sql`lateral (select x.num_values, x.text_values from part_records x
      where x.station_id = ${stationId} and x.part_id = r.part_id
      order by x.ts desc, x.op desc limit 1) ${sql.raw(a)}`;
    joins.push(required.has(stationId) ? sql`cross join ${lateral}` : sql`left join ${lateral} on true`);
  }

  const rows = await arrayRows(
    db,
    sql`
    select extract(epoch from r.ts)::text as t, r.part_id, r.model_number${selectCols.length ? sql`, ${sql.join(selectCols, sql`, `)}` : sql``}
    from part_records r ${sql.join(joins, sql` `)}
    where ${sql.join(where, sql` and `)}
    order by ${oldestFirst ? sql`r.ts asc, r.part_id asc, r.op asc` : sql`r.ts desc, r.part_id desc, r.op desc`}
    limit ${limit}`,
  );
  return recordsOfRows(rows, columns, oldestFirst);
}

/**
 * The event loop gets a turn at least this often while rows become records (ms): the largest
 * windows are 10⁷ values (10,000 records × 1,000 signals), seconds of conversion on the thread
 * that answers requests and acknowledges MQTT messages (issue #27 §1, bench:stall). An MQTT
 * message's store is several statements one after another, each waiting for a turn.
 */
const YIELD_EVERY_MS = 5;

/**
 * The turn every conversion waits for, and when the last one began: conversions running at the
 * same time (a backtest, a preview, the worker's windows) share one slice a turn instead of each
 * taking its own, so the loop turns every YIELD_EVERY_MS however many there are.
 */
let nextTurn: Promise<void> | undefined;
let turnBegan = performance.now();
function turn(): Promise<void> {
  nextTurn ??= new Promise((resolve) =>
    setImmediate(() => {
      nextTurn = undefined;
      turnBegan = performance.now();
      resolve();
    }),
  );
  return nextTurn;
}

/**
 * Rows as readRecords selects them (time, part id, model number, then one value or slice per run
 * of slotRunsOf(columns)) → records oldest first, each with its columns' values (NaN = missing).
 * Gives the event loop a turn every `yieldEveryMs` of work (of all conversions together).
 */
export async function recordsOfRows(
  rows: readonly unknown[][],
  columns: readonly Cell[],
  oldestFirst: boolean,
  yieldEveryMs = YIELD_EVERY_MS,
): Promise<WindowRecord[]> {
  const { runs, at } = slotRunsOf(columns);
  const n = rows.length;
  const width = columns.length;
  const records = new Array<WindowRecord>(n);
  const slices = new Array<unknown[]>(runs.length);
  for (let i = 0; i < n; i++) {
    if (performance.now() - turnBegan >= yieldEveryMs) await turn();
    const row = rows[oldestFirst ? i : n - 1 - i] as unknown[];
    for (let k = 0; k < runs.length; k++) {
      const run = runs[k] as SlotRun;
      const v = row[3 + k];
      slices[k] = run.lo === run.hi ? [v] : sliceOf(v);
    }
    const values = new Array<number>(width);
    for (let j = 0; j < width; j++) {
      const { run, offset } = at[j] as { run: number; offset: number };
      values[j] = numberOf((slices[run] as unknown[])[offset]);
    }
    records[i] = {
      ts: dateOfEpoch(String(row[0])),
      partId: String(row[1]),
      modelNumber: (row[2] as string | null) ?? null,
      values,
    };
  }
  return records;
}

const dialect = new PgDialect();
/** node-postgres: every field as the text PostgreSQL sends (the caller reads it). */
const TEXT_FIELDS = { getTypeParser: () => (text: string) => text };

/**
 * A query's rows as arrays in select order. On a node-postgres pool the rows come as arrays of
 * unparsed text (no per-row objects, no type parsing: windows are thousands of rows); any other
 * database or transaction goes through Drizzle.
 */
async function arrayRows(db: Tx, query: SQL): Promise<unknown[][]> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const result = await client.query({ text, values: params, rowMode: "array", types: TEXT_FIELDS });
    return result.rows as unknown[][];
  }
  // PGlite outside a transaction: rows as arrays too (no per-row objects).
  if (client instanceof PGlite) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const result = await client.query<unknown[]>(text, params, { rowMode: "array" });
    return result.rows;
  }
  return rowsOf<Record<string, unknown>>(await db.execute(query)).map((row) => Object.values(row));
}

const windowOf = (plan: Plan, records: WindowRecord[]): Window => ({
  signals: plan.signals.map(toWindowSignal),
  references: plan.references.map(toWindowSignal),
  records,
  ...(plan.limits ? { limits: plan.limits } : {}),
});

const EMPTY: Window = { signals: [], references: [], records: [] };

/** Loads the window of a monitor (or of a preview's settings). */
export async function loadWindow(db: Tx, q: WindowQuery): Promise<Window> {
  const plan = planWindow(await loadCatalog(db, [q]), q);
  if (!plan) return { ...EMPTY };
  return windowOf(plan, await readRecords(db, plan.rowSet, plan.columns, plan.limit, plan.oldestFirst));
}

/**
 * The records of a replay (the backtest, issue #18): the newest `before` records at or before
 * `from` (the window of the period's first slot) then every record after `from` up to `to`, oldest
 * first, in the worker's order (time, part id, op), with the window's signals, references and
 * limits. Two statements, whatever the number of slots: windows then slide over these in memory.
 * At most `max` records after `from` are read; `truncated` says there were more.
 */
export async function loadRecordSpan(
  db: Tx,
  q: Omit<WindowQuery, "period">,
  span: { from: Date; to: Date; before: number; max: number },
): Promise<{ window: Window; truncated: boolean }> {
  const query: WindowQuery = {
    ...q,
    period: { from: null, to: span.from, limit: span.before, anchor: "end" },
  };
  const plan = planWindow(await loadCatalog(db, [query]), query);
  if (!plan) return { window: { ...EMPTY }, truncated: false };
  const after: RowSet = {
    ...plan.rowSet,
    from: span.from.toISOString(),
    fromExclusive: true,
    to: span.to.toISOString(),
  };
  const [older, newer] = await Promise.all([
    span.before > 0 ? readRecords(db, plan.rowSet, plan.columns, span.before, false) : ([] as WindowRecord[]),
    readRecords(db, after, plan.columns, span.max + 1, true),
  ]);
  const truncated = newer.length > span.max;
  if (truncated) newer.length = span.max;
  return { window: windowOf(plan, older.concat(newer)), truncated };
}

/**
 * Loads the windows of several monitors (the worker's batch), each exactly as loadWindow would:
 * the window or the error loading it, in the order of the queries. Queries with a period are read
 * one by one. Windows of one call may share record objects: they are read-only.
 */
export async function loadWindows(db: Tx, queries: readonly WindowQuery[]): Promise<(Window | Error)[]> {
  const out: (Window | Error)[] = new Array(queries.length);
  const catalog = await loadCatalog(db, queries);
  const groups = new Map<string, { rowSet: RowSet; members: { index: number; plan: Plan }[] }>();
  queries.forEach((q, index) => {
    try {
      const plan = planWindow(catalog, q);
      if (!plan) {
        out[index] = { ...EMPTY };
        return;
      }
      const key = q.period ? `period:${index}` : JSON.stringify(plan.rowSet);
      const group = groups.get(key) ?? { rowSet: plan.rowSet, members: [] };
      group.members.push({ index, plan });
      groups.set(key, group);
    } catch (err) {
      out[index] = err instanceof Error ? err : new Error(String(err));
    }
  });
  await Promise.all(
    [...groups.values()].map(async ({ rowSet, members }) => {
      try {
        const only = members.length === 1 ? members[0] : undefined;
        if (only) {
          const { plan } = only;
          out[only.index] = windowOf(
            plan,
            await readRecords(db, rowSet, plan.columns, plan.limit, plan.oldestFirst),
          );
          return;
        }
        // The union of the members' columns and their largest sample size, read once.
        const columns: Cell[] = [];
        const at = new Map<string, number>();
        for (const { plan } of members)
          for (const c of plan.columns) {
            const k = cellKey(c);
            if (!at.has(k)) {
              at.set(k, columns.length);
              columns.push(c);
            }
          }
        const limit = Math.max(...members.map((m) => m.plan.limit));
        const records = await readRecords(db, rowSet, columns, limit, false);
        for (const { index, plan } of members) {
          // Its newest `limit` records (oldest first) and its own columns, in its order.
          const own = records.slice(Math.max(0, records.length - plan.limit));
          const pick = plan.columns.map((c) => at.get(cellKey(c)) as number);
          const same = pick.length === columns.length && pick.every((p, i) => p === i);
          if (!same) {
            const k = pick.length;
            for (let i = 0; i < own.length; i++) {
              const r = own[i] as WindowRecord;
              const values = new Array<number>(k);
              for (let j = 0; j < k; j++) values[j] = r.values[pick[j] as number] as number;
              own[i] = { ts: r.ts, partId: r.partId, modelNumber: r.modelNumber, values };
            }
          }
          out[index] = windowOf(plan, own);
        }
      } catch (err) {
        for (const { index } of members) out[index] = err instanceof Error ? err : new Error(String(err));
      }
    }),
  );
  return out;
}
