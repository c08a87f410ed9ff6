import {
  describeIssues,
  INGEST_FUTURE_TOLERANCE_MS,
  PART_RECORD_MESSAGES,
  type TIngestResult,
  type TPartRecord,
  ZPartRecord,
} from "@linewatch/contracts";
import type { Db, Tx } from "../../db/client.js";
import { describeDbError, isTransientDbError } from "../../db/errors.js";
import { type IngestTransport, ingestRecords } from "../../lib/metrics.js";
import { createSlicer } from "../../lib/slices.js";
import { createPartRecordsCatalog, type SignalWant } from "./part-records.catalog.js";
import {
  createPartRecordsRepo,
  type DeadLetterRow,
  type PartRecordRow,
  type SampleRow,
} from "./part-records.repo.js";

/** Whose records these are: the plant of the ingestor that received them. */
export type IngestTarget = { customerId: string; plantId: string };
/** Line and station taken from the topic when the body has none. */
export type IngestDefaults = { line?: string; station?: string };

type Pending = {
  index: number;
  row: PartRecordRow;
  lineId: string;
  ts: Date;
  attributeValues: [string, string][];
};

/**
 * Rows are committed in slices of at most this many values (a row counts its signals and its 7
 * columns): one transaction each, so another plant's records wait for one slice at most — PGlite
 * runs one transaction at a time — never for a whole batch (issue 27 §2: a 10,000 × 200 batch
 * in one transaction held everyone else for 6 s). About 100 rows of 200 signals, 500 of 40.
 */
export const INSERT_SLICE_VALUES = 25_000;
const valuesOf = (p: Pending) => 7 + (p.row.numValues?.length ?? 0) + (p.row.textValues?.length ?? 0);

/** The signals a record names, in the order they must be created (results first, limits last). */
function wantedSignals(r: TPartRecord): SignalWant[] {
  const results = Object.keys(r.results);
  const resultName = results.length === 1 ? results[0] : undefined;
  const wants: SignalWant[] = [
    ...results.map((name) => ({ name, entityType: "RESULT" as const, storage: "text" as const })),
    ...Object.keys(r.attributes).map((name) => ({
      name,
      entityType: "PART_ATTRIBUTE" as const,
      storage: "text" as const,
    })),
    ...Object.keys(r.measurements).map((name) => ({
      name,
      entityType: "MEASUREMENT" as const,
      storage: "num" as const,
      resultName,
    })),
  ];
  for (const [measurement, lim] of Object.entries(r.limits)) {
    if (!r.measurements[measurement] && !(measurement in r.measurements)) {
      wants.push({ name: measurement, entityType: "MEASUREMENT", storage: "num", resultName });
    }
    if (lim.upper !== undefined)
      wants.push({
        name: `${measurement} Upper Limit`,
        entityType: "UPPER_LIMIT",
        storage: "num",
        limitOf: { measurement, side: "upper" },
      });
    if (lim.lower !== undefined)
      wants.push({
        name: `${measurement} Lower Limit`,
        entityType: "LOWER_LIMIT",
        storage: "num",
        limitOf: { measurement, side: "lower" },
      });
  }
  return wants;
}

/** The value a wanted signal takes in this record. */
function recordValue(r: TPartRecord, w: SignalWant): number | string | null | undefined {
  if (w.limitOf) return r.limits[w.limitOf.measurement]?.[w.limitOf.side];
  if (w.entityType === "RESULT") return r.results[w.name];
  if (w.entityType === "PART_ATTRIBUTE") return r.attributes[w.name];
  return r.measurements[w.name];
}

const REFUSED = "the database refused the record";
const refusedReason = (err: unknown) => `${REFUSED} (${describeDbError(err)})`;
/** Whether a rejection's reason is the database's refusal (else the record's own fault: validation). */
export const isRefusedByDatabase = (reason: string) => reason.startsWith(REFUSED);

/** Messages kept per data source for the insight-mapping page. */
export const SAMPLES_PER_SOURCE = 20;

export function createPartRecordsService(deps: { db: Db }) {
  const { db } = deps;
  const catalog = createPartRecordsCatalog(db);
  const repo = createPartRecordsRepo(db);

  /** Turns one valid record into its row, creating unknown lines, stations and signals. */
  async function toRow(
    target: IngestTarget,
    r: TPartRecord,
    defaults: IngestDefaults,
    index: number,
  ): Promise<Pending | string> {
    const lineName = r.line ?? defaults.line;
    const stationName = r.station ?? defaults.station;
    if (!lineName) return "line is required (in the record or the topic)";
    if (!stationName) return "station is required (in the record or the topic)";
    const station =
      catalog.cachedStation(target.plantId, lineName, stationName) ??
      (await catalog.station(
        target.customerId,
        await catalog.line(target.customerId, target.plantId, lineName),
        stationName,
      ));
    const num: (number | null)[] = [];
    const text: (string | null)[] = [];
    const attributeValues: [string, string][] = [];
    for (const want of wantedSignals(r)) {
      const s = station.signals.get(want.name) ?? (await catalog.signal(target.customerId, station, want));
      const v = recordValue(r, want);
      if (v === undefined) continue;
      if (s.storage !== want.storage) {
        return `signal "${want.name}" at station "${stationName}" holds ${s.storage === "num" ? "numbers" : "text"}`;
      }
      if (s.storage === "num") num[s.slot] = v as number | null;
      else text[s.slot] = v as string | null;
      if (want.entityType === "PART_ATTRIBUTE" && typeof v === "string" && v !== "")
        attributeValues.push([s.id, v]);
    }
    const ts = new Date(r.timestamp);
    return {
      index,
      lineId: station.lineId,
      ts,
      attributeValues,
      row: {
        stationId: station.id,
        ts,
        partId: r.partId,
        op: r.op,
        modelNumber: r.modelNumber ?? null,
        // Holes (signals this record does not carry) are NULL.
        numValues: num.length ? Array.from(num, (v) => v ?? null) : null,
        textValues: text.length ? Array.from(text, (v) => v ?? null) : null,
      },
    };
  }

  /** Stores rows, line times, model numbers and attribute values in one transaction. */
  async function store(tx: Tx, target: IngestTarget, pending: Pending[]): Promise<number> {
    const repo = createPartRecordsRepo(tx);
    const stored = await repo.insertRecords(pending.map((p) => p.row));
    const lastByLine = new Map<string, Date>();
    const models = new Map<string, Set<string>>();
    const attrs = new Map<string, [string, string]>();
    for (const p of pending) {
      const t = lastByLine.get(p.lineId);
      if (!t || p.ts > t) lastByLine.set(p.lineId, p.ts);
      if (p.row.modelNumber) {
        if (!models.has(p.lineId)) models.set(p.lineId, new Set());
        models.get(p.lineId)?.add(p.row.modelNumber);
      }
      for (const a of p.attributeValues) attrs.set(`${a[0]}\u0000${a[1]}`, a);
    }
    for (const [lineId, t] of lastByLine) await repo.advanceLastIngested(lineId, t);
    await repo.insertModelNumbers(
      [...models].flatMap(([lineId, set]) =>
        [...set].map((value) => ({ customerId: target.customerId, lineId, value })),
      ),
    );
    await repo.insertAttributeValues([...attrs.values()].map(([signalId, value]) => ({ signalId, value })));
    return stored;
  }

  /**
   * Stores rows in one transaction. When the database refuses something in it, the rows are
   * halved and each half stored on its own, down to the single refused records, which are
   * rejected with the database's reason: the good rows beside them are stored whatever the batch
   * holds. A database that is away (isTransientDbError) fails the whole call, for a retry.
   */
  async function storeSplitting(
    target: IngestTarget,
    pending: Pending[],
    rejected: TIngestResult["rejected"],
  ): Promise<number> {
    if (!pending.length) return 0;
    try {
      return await db.transaction((tx) => store(tx, target, pending));
    } catch (err) {
      if (isTransientDbError(err)) throw err;
      const [only] = pending;
      if (pending.length === 1 && only) {
        rejected.push({ index: only.index, reason: refusedReason(err) });
        return 0;
      }
      const mid = pending.length >> 1;
      const first = await storeSplitting(target, pending.slice(0, mid), rejected);
      return first + (await storeSplitting(target, pending.slice(mid), rejected));
    }
  }

  return {
    catalog,
    /** Keeps dead letters, each already cut to what the table holds. */
    keepDeadLetters: (rows: DeadLetterRow[]) => repo.insertDeadLetters(rows),
    /**
     * Keeps one whole message as a dead letter: with its payload, else (the database refused
     * that too) with the reason alone.
     */
    async keepDeadLetter(row: DeadLetterRow) {
      try {
        await repo.insertDeadLetters([row]);
      } catch {
        await repo.insertDeadLetters([{ ...row, payload: "" }]);
      }
    },
    /** Keeps a received message as its data source's sample: the newest SAMPLES_PER_SOURCE stay. */
    keepSample: (row: SampleRow) => repo.insertSample(row, SAMPLES_PER_SOURCE),
    /**
     * Validates and stores part records. Each record is judged on its own: a bad one — refused by
     * its schema or by the database — is rejected with its reason and never stops the good ones.
     * A replay of a stored key changes nothing.
     *
     * The work is done in slices (lib/slices.ts): records are validated and turned into rows
     * with the event loop let run every few milliseconds, and committed in transactions of at
     * most INSERT_SLICE_VALUES values, so a large batch never holds other clients for longer
     * than one slice. A batch is therefore not stored atomically: when the database goes away
     * in the middle (the call fails, for a retry) the slices before stay committed, and the
     * retry — a QoS 1 redelivery, a repeated request — stores the rest and counts those as
     * duplicates. An aborted `signal` stops the work between two records (with its reason).
     *
     * A record dated more than INGEST_FUTURE_TOLERANCE_MS after `opts.now` (the server's clock
     * when the batch arrived; a simulated clock in tests of the demo) is rejected with its reason.
     */
    async ingest(
      target: IngestTarget,
      inputs: unknown[],
      defaults: IngestDefaults = {},
      opts: { signal?: AbortSignal; transport?: IngestTransport; now?: number } = {},
    ): Promise<TIngestResult> {
      const latest = (opts.now ?? Date.now()) + INGEST_FUTURE_TOLERANCE_MS;
      const slicer = createSlicer({ signal: opts.signal });
      const rejected: TIngestResult["rejected"] = [];
      const seen = new Set<string>();
      let duplicates = 0;
      let accepted = 0;
      let stored = 0;
      let refused = 0;
      let slice: Pending[] = [];
      let sliceValues = 0;
      const commitSlice = async () => {
        const before = rejected.length;
        stored += await storeSplitting(target, slice, rejected);
        refused += rejected.length - before;
        slice = [];
        sliceValues = 0;
      };
      for (const [index, input] of inputs.entries()) {
        await slicer.next();
        const parsed = ZPartRecord.safeParse(input);
        if (!parsed.success) {
          rejected.push({ index, reason: describeIssues(parsed.error) });
          continue;
        }
        const ts = Date.parse(parsed.data.timestamp);
        if (ts > latest) {
          const ahead = ts - (latest - INGEST_FUTURE_TOLERANCE_MS);
          rejected.push({ index, reason: PART_RECORD_MESSAGES.inFuture(parsed.data.timestamp, ahead) });
          continue;
        }
        let p: Pending | string;
        try {
          p = await toRow(target, parsed.data, defaults, index);
        } catch (err) {
          // Creating its line, station or signals failed: the database refused this record's names.
          if (isTransientDbError(err)) throw err;
          p = refusedReason(err);
        }
        if (typeof p === "string") {
          rejected.push({ index, reason: p });
          continue;
        }
        const key = `${p.row.stationId}|${p.ts.toISOString()}|${p.row.partId}|${p.row.op}`;
        if (seen.has(key)) {
          duplicates++;
          continue;
        }
        seen.add(key);
        accepted++;
        slice.push(p);
        sliceValues += valuesOf(p);
        if (sliceValues >= INSERT_SLICE_VALUES) await commitSlice();
      }
      if (slice.length) await commitSlice();
      rejected.sort((a, b) => a.index - b.index);
      const result = { stored, duplicates: duplicates + accepted - refused - stored, rejected };
      const transport = opts.transport ?? "http";
      ingestRecords.inc({ transport, outcome: "stored" }, result.stored);
      ingestRecords.inc({ transport, outcome: "duplicate" }, result.duplicates);
      ingestRecords.inc({ transport, outcome: "rejected" }, rejected.length);
      return result;
    },
  };
}
export type PartRecordsService = ReturnType<typeof createPartRecordsService>;
