import type { IPublishPacket } from "mqtt";
import type { Db } from "../db/client.js";
import type { PartRecordsService } from "../modules/part-records/part-records.service.js";
import { createIngestLog } from "./ingest-log.js";
import type { SourceDirectory } from "./sources.js";

/**
 * Line and station from the topic when the record has none: the last two levels name them
 * (`…/<line>/<station>`).
 */
export function topicDefaults(topic: string): { line?: string; station?: string } {
  const levels = topic.split("/").filter(Boolean);
  if (levels.length < 2) return {};
  return { line: levels[levels.length - 2], station: levels[levels.length - 1] };
}

type Waiting = { packet: IPublishPacket; resolve: () => void };

/**
 * Collects MQTT messages and stores them in batches (a batch is stored when it has batchSize
 * messages or flushMs after its first). `add` resolves once the message's records are committed
 * — or kept as dead letters — so callers acknowledge only then. A failed store is retried every
 * second, never dropped.
 */
export function createIngestBatcher(opts: {
  db: Db;
  partRecords: PartRecordsService;
  directory: SourceDirectory;
  batchSize?: number;
  flushMs?: number;
  log?: (msg: string) => void;
}) {
  const log = opts.log ?? (() => {});
  const ingestLog = createIngestLog(opts.db);
  const batchSize = opts.batchSize ?? 1_000;
  // 0: store what arrived in this turn of the event loop. A broker that waits for our answer
  // before it reads on (Aedes does, per socket chunk) must not also wait for a timer.
  const flushMs = opts.flushMs ?? 0;
  let waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  async function store(batch: Waiting[]) {
    for (;;) {
      try {
        await ingestLog.store(
          batch.map((w) => w.packet),
          opts.directory.current(),
          opts.partRecords,
          topicDefaults,
        );
        for (const w of batch) w.resolve();
        return;
      } catch (err) {
        log(`storing ${batch.length} MQTT messages failed, retrying in 1 s: ${(err as Error).message}`);
        if (closed) return;
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  }

  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
    timer = undefined;
    const batch = waiting;
    waiting = [];
    if (batch.length) chain = chain.then(() => store(batch));
    return chain;
  }

  return {
    add(packet: IPublishPacket): Promise<void> {
      return new Promise<void>((resolve) => {
        waiting.push({ packet, resolve });
        if (waiting.length >= batchSize) void flush();
        else
          timer ??= flushMs > 0 ? setTimeout(() => void flush(), flushMs) : setImmediate(() => void flush());
      });
    },
    flush,
    async close() {
      await flush();
      closed = true;
    },
  };
}
export type IngestBatcher = ReturnType<typeof createIngestBatcher>;
