import { topicDefaults } from "@linewatch/contracts";
import type { IPublishPacket } from "mqtt";
import type { Db } from "../db/client.js";
import { describeDbError, isTransientDbError } from "../db/errors.js";
import { type Logger, silentLogger } from "../lib/logger.js";
import type { PartRecordsService } from "../modules/part-records/part-records.service.js";
import { createIngestLog } from "./ingest-log.js";
import type { SourceDirectory } from "./sources.js";

type Waiting = { packet: IPublishPacket; resolve: () => void };

/** Backoff of a batch that failed because the database was away: 1 s, doubling, at most 30 s. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

/**
 * Collects MQTT messages and stores them in batches (a batch is stored when it has batchSize
 * messages or flushMs after its first). `add` resolves once the message's records are committed
 * — or kept as dead letters — so callers acknowledge only then.
 *
 * What the database refuses never stops ingestion: part-records rejects each refused record on
 * its own (it halves its transaction until the refused record stands alone) and the record
 * becomes a dead letter; anything else the database refuses in a batch splits the batch in
 * halves here, down to the one message, which is kept whole as a dead letter. A batch is retried
 * only when the database is away (isTransientDbError), with backoff; so a bad message delays the
 * others by no more than its own batch's splitting.
 *
 * After `close` nothing new is stored and retries stop: messages not yet committed stay
 * unacknowledged, for the broker to redeliver.
 *
 * Log lines name the data source, the topic and the reason, never a payload or a statement's
 * parameters.
 */
export function createIngestBatcher(opts: {
  db: Db;
  partRecords: PartRecordsService;
  directory: SourceDirectory;
  batchSize?: number;
  flushMs?: number;
  logger?: Logger;
}) {
  const logger = opts.logger ?? silentLogger;
  const ingestLog = createIngestLog(opts.db);
  const batchSize = opts.batchSize ?? 1_000;
  // 0: store what arrived in this turn of the event loop. A broker that waits for our answer
  // before it reads on (Aedes does, per socket chunk) must not also wait for a timer.
  const flushMs = opts.flushMs ?? 0;
  let waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  // Wakes a backoff wait early when the batcher closes.
  let wake: (() => void) | undefined;

  /** The log fields of a batch: its data sources and topics (of up to three messages), and its size. */
  function whose(batch: Waiting[]) {
    const some = batch.slice(0, 3).map((w) => w.packet.topic);
    return {
      messages: batch.length,
      dataSourceIds: [...new Set(some.map((t) => opts.directory.match(t)?.id ?? null))],
      topics: [...new Set(some)],
    };
  }

  async function pause(ms: number) {
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
    wake = undefined;
  }

  /** Runs `write` until it succeeds or fails for good; retries while the database is away. */
  async function untilStored(
    what: ReturnType<typeof whose> & { step: string },
    write: () => Promise<void>,
  ): Promise<{ outcome: "stored" } | { outcome: "closed" } | { outcome: "refused"; err: unknown }> {
    let delay = RETRY_FIRST_MS;
    for (;;) {
      if (closed) return { outcome: "closed" };
      try {
        await write();
        return { outcome: "stored" };
      } catch (err) {
        if (!isTransientDbError(err)) return { outcome: "refused", err };
        if (closed) return { outcome: "closed" };
        logger.warn(
          { ...what, retryInMs: delay, reason: describeDbError(err) },
          `${what.step} failed, retrying in ${delay / 1000} s`,
        );
        await pause(delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    }
  }

  async function store(batch: Waiting[]): Promise<void> {
    const what = { ...whose(batch), step: "storing MQTT messages" };
    const result = await untilStored(what, () =>
      ingestLog.store(
        batch.map((w) => w.packet),
        opts.directory.current(),
        opts.partRecords,
        topicDefaults,
      ),
    );
    if (result.outcome === "closed") return;
    if (result.outcome === "stored") {
      for (const w of batch) w.resolve();
      return;
    }
    if (batch.length > 1) {
      const mid = batch.length >> 1;
      await store(batch.slice(0, mid));
      await store(batch.slice(mid));
      return;
    }
    const [only] = batch;
    if (!only) return;
    const reason = `the database refused the message (${describeDbError(result.err)})`;
    logger.warn({ ...what, reason }, "kept an MQTT message as a dead letter");
    const kept = await untilStored({ ...what, step: "storing a dead letter" }, () =>
      ingestLog.deadLetter(only.packet, opts.directory.current(), reason),
    );
    if (kept.outcome === "refused")
      logger.error(
        { ...what, reason: describeDbError(kept.err) },
        "dropped an MQTT message: its dead letter was refused too",
      );
    if (kept.outcome !== "closed") only.resolve();
  }

  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
    timer = undefined;
    const batch = waiting;
    waiting = [];
    if (batch.length && !closed) chain = chain.then(() => store(batch));
    return chain;
  }

  return {
    add(packet: IPublishPacket): Promise<void> {
      return new Promise<void>((resolve) => {
        if (closed) return; // never acknowledged: the broker redelivers it
        waiting.push({ packet, resolve });
        if (waiting.length >= batchSize) void flush();
        else
          timer ??= flushMs > 0 ? setTimeout(() => void flush(), flushMs) : setImmediate(() => void flush());
      });
    },
    flush,
    /**
     * Stops storing: waits for the statement under way (not for retries, which stop), and leaves
     * what is not committed unacknowledged.
     */
    async close() {
      closed = true;
      if (timer) {
        clearTimeout(timer as NodeJS.Timeout);
        clearImmediate(timer as NodeJS.Immediate);
      }
      timer = undefined;
      waiting = [];
      wake?.();
      await chain;
    },
  };
}
export type IngestBatcher = ReturnType<typeof createIngestBatcher>;
