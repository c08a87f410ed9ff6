import { topicDefaults } from "@linewatch/contracts";
import type { IPublishPacket } from "mqtt";
import { describeDbError, isTransientDbError } from "../db/errors.js";
import { type Logger, silentLogger } from "../lib/logger.js";
import { ingestBatchSeconds, ingestMessages, watchIngestQueue } from "../lib/metrics.js";
import type { PartRecordsService } from "../modules/part-records/part-records.service.js";
import { createIngestLog, type DeadLetterNote, type IngestMessage } from "./ingest-log.js";
import type { IngestSource, SourceDirectory } from "./sources.js";

/** A message taken, with the data source its topic was resolved to where it arrived. */
type Waiting = IngestMessage & { resolve: () => void };

/** Backoff of a batch that failed because the database was away: 1 s, doubling, at most 30 s. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 30_000;
/**
 * A message with a larger payload (bytes) is stored in its data source's own lane instead of the
 * shared batches: about 90 records of 200 measurements, or 1,000 of a few. Below it a message is
 * stored in well under a second; above it, up to INGEST_MAX_BYTES, it may take many seconds,
 * and the other data sources' messages must not wait for it (issue 27 §2).
 */
export const LANE_BYTES = 256 * 1024;

/** Dead letters logged one line each per batch; the rest of a batch's are summed up in one line. */
export const DEAD_LETTER_LOG_LINES = 10;
/** A dead letter's reason is cut to this many characters in the log (the table keeps it whole). */
const LOGGED_REASON_MAX = 300;

/**
 * Collects MQTT messages and stores them in batches (a batch is stored when it has batchSize
 * messages or flushMs after its first). One batch is stored at a time: what arrives meanwhile
 * waits and goes, up to batchSize messages, into the next batch as soon as the one before is
 * committed — so when storing slows down (a busy database) the batches grow instead of queuing
 * one behind another, each waiting for all before it. `add` resolves once the message's records
 * are committed — or kept as dead letters — so callers acknowledge only then.
 *
 * What the database refuses never stops ingestion: part-records rejects each refused record on
 * its own (it halves its transaction until the refused record stands alone) and the record
 * becomes a dead letter; anything else the database refuses in a batch splits the batch in
 * halves here, down to the one message, which is kept whole as a dead letter. A batch is retried
 * only when the database is away (isTransientDbError), with backoff; so a bad message delays the
 * others by no more than its own batch's splitting.
 *
 * A large message (over LANE_BYTES) is not batched: it is stored alone, in a lane of its data
 * source, beside the shared batches. Large messages of one data source are stored one after
 * another; everything else goes on meanwhile, so one data source's 10,000-record message never
 * holds another's acknowledgements (part-records and the ingest log work in slices, so neither
 * does the event loop). Acknowledgements may therefore complete out of the order the messages
 * arrived in: each still follows its own message's commit.
 *
 * After `close` no message is taken and retries stop. The messages already taken are stored
 * with one attempt each — the batch under way and those waiting for the next — except large
 * messages, which stop between two slices; whatever is not committed stays unacknowledged, for
 * the broker to redeliver.
 *
 * Log lines name the data source, the topic and the reason, never a payload or a statement's
 * parameters.
 */
export function createIngestBatcher(opts: {
  partRecords: PartRecordsService;
  directory: SourceDirectory;
  batchSize?: number;
  flushMs?: number;
  logger?: Logger;
}) {
  const logger = opts.logger ?? silentLogger;
  const ingestLog = createIngestLog(opts.partRecords);
  const batchSize = opts.batchSize ?? 1_000;
  // 0: store what arrived in this turn of the event loop. A broker that waits for our answer
  // before it reads on (Aedes does, per socket chunk) must not also wait for a timer.
  const flushMs = opts.flushMs ?? 0;
  const waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  /** The batches being stored, one after another, until none is waiting. */
  let storing: Promise<void> | undefined;
  /** The lanes of large messages, by data source: each the promise of its last message's storing. */
  const lanes = new Map<string, Promise<void>>();
  let closed = false;
  // Messages waiting for the next batch, in the batch being stored, and large ones in their lanes.
  let inBatch = 0;
  let inLanes = 0;
  const unwatch = watchIngestQueue(() => waiting.length + inBatch + inLanes);
  // Stops a large message between two of its slices when the batcher closes (lib/slices.ts).
  const stopping = new AbortController();
  // Wake the backoff waits (of the batches and of the lanes) early when the batcher closes.
  const wakes = new Set<() => void>();

  /** The message's data source while it exists: none once deleted (its message is then skipped). */
  const stillThere = (source: IngestSource | undefined) =>
    source && opts.directory.has(source.id) ? source : undefined;
  /** The messages of a batch with their data sources as they are now. */
  const current = (batch: Waiting[]): IngestMessage[] =>
    batch.map((w) => ({ packet: w.packet, source: stillThere(w.source) }));

  /** The log fields of a batch: its data sources and topics (of up to three messages), and its size. */
  function whose(batch: Waiting[]) {
    const some = batch.slice(0, 3);
    return {
      messages: batch.length,
      dataSourceIds: [...new Set(some.map((w) => stillThere(w.source)?.id ?? null))],
      topics: [...new Set(some.map((w) => w.packet.topic))],
    };
  }

  async function pause(ms: number) {
    let wake = () => {};
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
      wakes.add(wake);
    });
    wakes.delete(wake);
  }

  /**
   * Runs `write` until it succeeds or fails for good; retries while the database is away, and
   * not once the batcher is closed (then a failure leaves the messages unacknowledged).
   */
  async function untilStored(
    what: ReturnType<typeof whose> & { step: string },
    write: () => Promise<unknown>,
  ): Promise<{ outcome: "stored" } | { outcome: "closed" } | { outcome: "refused"; err: unknown }> {
    let delay = RETRY_FIRST_MS;
    for (;;) {
      try {
        await write();
        return { outcome: "stored" };
      } catch (err) {
        // Closed meanwhile (a large message is stopped between two slices): whatever committed
        // is stored again, as duplicates, when the broker redelivers the message.
        if (closed) return { outcome: "closed" };
        if (!isTransientDbError(err)) return { outcome: "refused", err };
        logger.warn(
          { ...what, retryInMs: delay, reason: describeDbError(err) },
          `${what.step} failed, retrying in ${delay / 1000} s`,
        );
        await pause(delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
      if (closed) return { outcome: "closed" };
    }
  }

  /** One info line per dead letter (up to DEAD_LETTER_LOG_LINES a batch): what an operator follows. */
  function logDeadLetters(notes: DeadLetterNote[]) {
    for (const n of notes.slice(0, DEAD_LETTER_LOG_LINES))
      logger.info(
        {
          dataSourceId: n.dataSourceId,
          topic: n.topic,
          reason: n.kind,
          detail: n.reason.slice(0, LOGGED_REASON_MAX),
        },
        `dead letter: ${n.kind}`,
      );
    const more = notes.slice(DEAD_LETTER_LOG_LINES);
    if (more.length) {
      const byReason: Record<string, number> = {};
      for (const n of more) byReason[n.kind] = (byReason[n.kind] ?? 0) + 1;
      logger.info({ count: more.length, byReason }, `and ${more.length} more dead letters in this batch`);
    }
  }

  /**
   * Stores a batch, or one large message (with `signal`: the batcher's closing stops it between
   * two slices, for the broker to redeliver, instead of the shutdown waiting for the rest).
   */
  async function store(batch: Waiting[], signal?: AbortSignal): Promise<void> {
    const what = { ...whose(batch), step: "storing MQTT messages" };
    const started = performance.now();
    let dead: DeadLetterNote[] = [];
    const result = await untilStored(what, async () => {
      dead = await ingestLog.store(current(batch), topicDefaults, signal);
    });
    if (result.outcome === "closed") return;
    if (result.outcome === "stored") {
      ingestBatchSeconds.observe({ lane: signal ? "large" : "shared" }, (performance.now() - started) / 1000);
      ingestMessages.inc(batch.length);
      logDeadLetters(dead);
      for (const w of batch) w.resolve();
      return;
    }
    if (batch.length > 1) {
      const mid = batch.length >> 1;
      await store(batch.slice(0, mid), signal);
      await store(batch.slice(mid), signal);
      return;
    }
    const [only] = batch;
    if (!only) return;
    const reason = `the database refused the message (${describeDbError(result.err)})`;
    logger.warn({ ...what, reason }, "kept an MQTT message as a dead letter");
    const kept = await untilStored({ ...what, step: "storing a dead letter" }, () =>
      ingestLog.deadLetter({ packet: only.packet, source: stillThere(only.source) }, reason),
    );
    if (kept.outcome === "refused")
      logger.error(
        { ...what, reason: describeDbError(kept.err) },
        "dropped an MQTT message: its dead letter was refused too",
      );
    if (kept.outcome === "stored") ingestMessages.inc();
    if (kept.outcome !== "closed") only.resolve();
  }

  /** Starts a batch now when it is full, else at the next turn (or flushMs after its first message). */
  function schedule() {
    if (waiting.length >= batchSize) void flush();
    else timer ??= flushMs > 0 ? setTimeout(() => void flush(), flushMs) : setImmediate(() => void flush());
  }

  async function storeWaiting() {
    while (waiting.length) {
      const batch = waiting.splice(0, batchSize);
      inBatch = batch.length;
      try {
        await store(batch);
      } finally {
        inBatch = 0;
      }
    }
  }

  /** Stores what waits now (and what arrives until it is stored); resolves when none waits. */
  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
    timer = undefined;
    storing ??= storeWaiting().finally(() => {
      storing = undefined;
      // A message added while the last batch was finishing found it still under way.
      if (waiting.length && !closed) schedule();
    });
    return storing;
  }

  /** Stores one large message after the large messages of its data source before it. */
  function storeInLane(w: Waiting) {
    const key = w.source?.id ?? "";
    inLanes++;
    const stored = (lanes.get(key) ?? Promise.resolve())
      .then(() => (closed ? undefined : store([w], stopping.signal)))
      .catch((err: unknown) =>
        // Unacknowledged: the broker sends it again.
        logger.error({ ...whose([w]), reason: describeDbError(err) }, "storing a large MQTT message failed"),
      )
      .finally(() => {
        inLanes--;
        if (lanes.get(key) === stored) lanes.delete(key);
      });
    lanes.set(key, stored);
  }

  return {
    /**
     * Takes a message with the data source its topic resolved to (SourceDirectory.resolve, once,
     * where the message arrived; none: it is acknowledged and not stored).
     */
    add(packet: IPublishPacket, source: IngestSource | undefined): Promise<void> {
      return new Promise<void>((resolve) => {
        if (closed) return; // never acknowledged: the broker redelivers it
        if (packet.payload.length > LANE_BYTES) return storeInLane({ packet, source, resolve });
        waiting.push({ packet, source, resolve });
        // While a batch is being stored, this message goes into the next one.
        if (!storing) schedule();
      });
    },
    flush,
    /**
     * Stops taking messages and stores those taken, one attempt each (retries stop; a large
     * message stops between two slices): what is not committed stays unacknowledged.
     */
    async close() {
      closed = true;
      stopping.abort();
      for (const wake of wakes) wake();
      await Promise.all([flush(), ...lanes.values()]);
      unwatch();
    },
  };
}
export type IngestBatcher = ReturnType<typeof createIngestBatcher>;
