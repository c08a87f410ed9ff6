/**
 * Reading windows (the planning and what a window is: window.plan.ts). One statement a window, or
 * one a shared row set: monitors of the worker's batch whose records are the same share it.
 */

import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { rowsOf, type Tx } from "../../db/client.js";
import { isPgliteThread } from "../../db/pglite-thread.js";
import { resultClassifications } from "../../db/schema/index.js";
import type { Window, WindowRecord } from "./evaluate.js";
import { StatsCancelledError } from "./stats-pool.js";
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

/** A station's values are read as its whole array once the window reads this many of them. */
const WHOLE_ARRAY_MIN = 8;

/**
 * A float8[] as the driver gives it: an array (PGlite, node-postgres' parsers) or PostgreSQL's
 * text ("{1.5,NULL,2}": the window's pool reads text); null entries stay null.
 */
function numberArrayOf(v: unknown): (number | null)[] | null {
  if (v == null) return null;
  if (Array.isArray(v)) return v as (number | null)[];
  const text = String(v);
  if (text.length <= 2) return [];
  return text
    .slice(1, -1)
    .split(",")
    .map((x) => (x === "NULL" ? null : Number(x)));
}

/**
 * A window read in pages of about this many values (records × (columns + 3)): on the embedded
 * database each page holds PGlite alone (its background lane waits for it), and what a request
 * or an acknowledgement waits for is at most one page. 200,000 values kept a cheap GET's median
 * at 5.3× its idle one during the largest backtest and preview; 50,000 at 1.6× (bench:stall).
 */
const PAGE_VALUES = 50_000;
/** …and at least this many records a page. */
const PAGE_MIN_RECORDS = 50;

/**
 * Reads `limit` records of a row set, oldest first, with the values of `columns` (NaN = missing):
 * one statement, or pages of one (readPages). The time comes as epoch seconds text (exact, and
 * cheaper to read than a timestamp).
 */
async function readRecords(
  db: Tx,
  rs: RowSet,
  columns: readonly Cell[],
  limit: number,
  oldestFirst: boolean,
  signal?: AbortSignal,
): Promise<WindowRecord[]> {
  const records: WindowRecord[] = [];
  for await (const page of readPages(db, rs, columns, limit, oldestFirst, signal))
    for (const r of page) records.push(r);
  return oldestFirst ? records : records.reverse();
}

/**
 * The records of readRecords a page at a time, in the statement's order (oldest first, or newest
 * first), each page read once the one before it has been taken: a caller that consumes pages as
 * they come (a backtest's replay) holds one page, whatever `limit` is.
 */
async function* readPages(
  db: Tx,
  rs: RowSet,
  columns: readonly Cell[],
  limit: number,
  oldestFirst: boolean,
  signal?: AbortSignal,
): AsyncGenerator<WindowRecord[]> {
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
    // requirements.md monitor-forms §2 "Cap monitors": challenge range modes, time based and part based.
    if (range.mode === "TIME") {
      where.push(sql`not (r.ts >= ${new Date(range.from)} and r.ts <= ${new Date(range.to)})`);
    } else {
      const edge = (fn: SQL, partId: string) =>
        sql`(select ${fn} from part_records x where x.station_id = r.station_id and x.part_id = ${partId})`;
      where.push(sql`not coalesce(r.ts >= ${edge(sql`min(x.ts)`, range.from_part_id)}
        and r.ts <= ${edge(sql`max(x.ts)`, range.to_part_id)}, false)`);
    }
  }
  // What is selected: a station's whole value array when the window reads many of its values (each
  // `num_values[k]` decompresses the array again: 300 of them on 1,000-value rows took 14 s for
  // 2,000 rows where the arrays took 1 s), else each value. source[j] / slotIn[j]: where column j is.
  const perAlias = new Map<string, number>();
  for (const c of columns) perAlias.set(aliasOf(c.stationId), (perAlias.get(aliasOf(c.stationId)) ?? 0) + 1);
  const selectCols: SQL[] = [];
  const arrayAt = new Map<string, number>();
  const source = new Array<number>(columns.length);
  const slotIn = new Array<number>(columns.length);
  columns.forEach((c, j) => {
    const a = aliasOf(c.stationId);
    if ((perAlias.get(a) ?? 0) >= WHOLE_ARRAY_MIN) {
      let at = arrayAt.get(a);
      if (at === undefined) {
        at = selectCols.length;
        arrayAt.set(a, at);
        selectCols.push(sql`${sql.raw(a)}.num_values as ${sql.raw(`a${at}`)}`);
      }
      source[j] = at;
      slotIn[j] = c.slot;
    } else {
      source[j] = selectCols.length;
      slotIn[j] = -1;
      selectCols.push(sql`${numOf(c)} as ${sql.raw(`v${selectCols.length}`)}`);
    }
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

  const width = columns.length;
  const selected = selectCols.length;
  // A large window is read in pages of about PAGE_VALUES values, each after the last one's key
  // (the primary key's order): between pages the event loop answers others, where one statement
  // would hand it every row at once (10,000 × 1,000 values: seconds of parsing on this thread).
  const pageSize = Math.max(PAGE_MIN_RECORDS, Math.floor(PAGE_VALUES / (width + 3)));
  const paged = limit > pageSize;
  const keyCols = paged ? sql`, r.ts::text as k_ts, r.op as k_op` : sql``;
  const cmp = oldestFirst ? sql`>` : sql`<`;
  const dir = oldestFirst ? sql`asc` : sql`desc`;
  // Records as each page arrives (in the statement's order), so no step handles every value at once.
  let read = 0;
  let after: unknown[] | undefined;
  for (;;) {
    // A caller that went away (a closed request) reads no further page.
    if (signal?.aborted) throw new StatsCancelledError();
    const take = Math.min(limit - read, paged ? pageSize : limit);
    const keyset = after
      ? [
          sql`(r.ts, r.part_id, r.op) ${cmp} (${after[3 + selected]}::timestamptz, ${after[1]}, ${after[4 + selected]}::smallint)`,
        ]
      : [];
    const page = await arrayRows(
      paged,
      db,
      sql`
    select extract(epoch from r.ts)::text as t, r.part_id, r.model_number${selectCols.length ? sql`, ${sql.join(selectCols, sql`, `)}` : sql``}${keyCols}
    from part_records r ${sql.join(joins, sql` `)}
    where ${sql.join([...where, ...keyset], sql` and `)}
    order by r.ts ${dir}, r.part_id ${dir}, r.op ${dir}
    limit ${take}`,
    );
    const records = new Array<WindowRecord>(page.length);
    let i = 0;
    for (const row of page) {
      const arrays: ((number | null)[] | null)[] = [];
      for (const at of arrayAt.values()) arrays[at] = numberArrayOf(row[3 + at]);
      const values = new Array<number>(width);
      for (let j = 0; j < width; j++) {
        const k = slotIn[j] as number;
        const v = k < 0 ? row[3 + (source[j] as number)] : (arrays[source[j] as number]?.[k] ?? null);
        values[j] = v == null ? Number.NaN : Number(v);
      }
      records[i++] = {
        ts: dateOfEpoch(String(row[0])),
        partId: String(row[1]),
        modelNumber: (row[2] as string | null) ?? null,
        values,
      };
    }
    read += records.length;
    const last = page[page.length - 1];
    if (records.length) yield records;
    if (!paged || page.length < take || read >= limit) break;
    after = last;
  }
}

const dialect = new PgDialect();
/** node-postgres: every field as the text PostgreSQL sends (the caller reads it). */
const TEXT_FIELDS = { getTypeParser: () => (text: string) => text };

/**
 * A query's rows as arrays in select order (`large`: a page of a window read in several). On a
 * node-postgres pool the rows come as arrays of unparsed text (no per-row objects, no type
 * parsing: windows are thousands of rows); any other database or transaction goes through Drizzle.
 */
async function arrayRows(large: boolean, db: Tx, query: SQL): Promise<unknown[][]> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const result = await client.query({ text, values: params, rowMode: "array", types: TEXT_FIELDS });
    return result.rows as unknown[][];
  }
  // PGlite outside a transaction: rows as arrays too (no per-row objects to build, clone across
  // the thread and take apart again). On its thread, a large window's pages go in the background
  // lane: they leave the embedded database to requests and acknowledgements about half the time.
  // A window of one page goes as any statement does (a few milliseconds: the lane's waits for a
  // gap would only slow the page that asked for it).
  if (isPgliteThread(client)) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    const send = large ? client.backgroundQuery : client.query;
    return (await send<unknown[]>(text, params, { rowMode: "array" })).rows;
  }
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

/**
 * Loads the window of a monitor (or of a preview's settings). Aborting `signal` stops it between
 * pages with StatsCancelledError.
 */
export async function loadWindow(
  db: Tx,
  q: WindowQuery,
  opts: { signal?: AbortSignal } = {},
): Promise<Window> {
  const plan = planWindow(await loadCatalog(db, [q]), q);
  if (!plan) return { ...EMPTY };
  return windowOf(
    plan,
    await readRecords(db, plan.rowSet, plan.columns, plan.limit, plan.oldestFirst, opts.signal),
  );
}

/**
 * The records of a replay read as they are consumed (the backtest over a month, issue 31 §4):
 * `window` holds the window's signals, references and limits and the newest `before` records at
 * or before `from` (oldest first); `chunks` then gives every record after `from` up to `to`,
 * oldest first in the worker's order (time, part id, op), a page at a time (readPages: each page
 * one statement after the last one's key, on the primary key's order within the base station, so
 * no statement sorts the month and a page is read only when the one before it has been taken).
 * Nothing bounds the count: the caller counts as it takes.
 */
export async function openRecordSpan(
  db: Tx,
  q: Omit<WindowQuery, "period">,
  span: { from: Date; to: Date; before: number },
  opts: { signal?: AbortSignal } = {},
): Promise<{ window: Window; chunks: AsyncGenerator<WindowRecord[]> }> {
  const query: WindowQuery = {
    ...q,
    period: { from: null, to: span.from, limit: span.before, anchor: "end" },
  };
  const plan = planWindow(await loadCatalog(db, [query]), query);
  if (!plan) return { window: { ...EMPTY }, chunks: (async function* () {})() };
  const older =
    span.before > 0 ? await readRecords(db, plan.rowSet, plan.columns, span.before, false, opts.signal) : [];
  const after: RowSet = {
    ...plan.rowSet,
    from: span.from.toISOString(),
    fromExclusive: true,
    to: span.to.toISOString(),
  };
  return {
    window: windowOf(plan, older),
    chunks: readPages(db, after, plan.columns, Number.MAX_SAFE_INTEGER, true, opts.signal),
  };
}

/**
 * A period's records for a view that reads at most `max` of them (the capability view, issue 31
 * §4): every record of the period when its base station holds at most `max` in it (counted first,
 * without the filter's other conditions: at most max + 1 index entries), else a sample of its
 * time — the period cut into `stretches` equal stretches and the first max / stretches records of
 * each (every record of a stretch that holds fewer), oldest first. `isSampled`: some records of
 * the period are not in the window.
 */
export async function loadPeriodSample(
  db: Tx,
  q: Omit<WindowQuery, "period">,
  period: { from: Date; to: Date },
  bound: { max: number; stretches: number },
  opts: { signal?: AbortSignal } = {},
): Promise<{ window: Window; isSampled: boolean }> {
  const query: WindowQuery = { ...q, period: { ...period, limit: bound.max + 1, anchor: "end" } };
  const plan = planWindow(await loadCatalog(db, [query]), query);
  if (!plan) return { window: { ...EMPTY }, isSampled: false };
  const { rowSet, columns } = plan;
  const counted = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*) as n from (select 1 from part_records r
      where r.station_id = ${rowSet.baseStation} and r.ts >= ${period.from} and r.ts <= ${period.to}
      limit ${bound.max + 1}) x`),
  );
  if (Number(counted[0]?.n ?? 0) <= bound.max) {
    const records = await readRecords(db, rowSet, columns, bound.max, false, opts.signal);
    return { window: windowOf(plan, records), isSampled: false };
  }
  const each = Math.floor(bound.max / bound.stretches);
  const span = period.to.getTime() - period.from.getTime();
  const edge = (k: number) =>
    k === bound.stretches
      ? period.to
      : new Date(period.from.getTime() + Math.floor((span * k) / bound.stretches));
  // One statement a stretch, each an index range scan that stops after each + 1 records.
  const parts = await Promise.all(
    Array.from({ length: bound.stretches }, (_, k) =>
      readRecords(
        db,
        { ...rowSet, from: edge(k).toISOString(), fromExclusive: k > 0, to: edge(k + 1).toISOString() },
        columns,
        each + 1,
        true,
        opts.signal,
      ),
    ),
  );
  let isSampled = false;
  const records: WindowRecord[] = [];
  for (const part of parts) {
    if (part.length > each) {
      isSampled = true;
      part.length = each;
    }
    for (const r of part) records.push(r);
  }
  return { window: windowOf(plan, records), isSampled };
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
