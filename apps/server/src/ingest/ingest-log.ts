import { DEAD_LETTER_REASONS, INGEST_BATCH_MAX, topicMatches, toStorableText } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import type { IPublishPacket } from "mqtt";
import type { Db } from "../db/client.js";
import { dataSourceMessages, deadLetters } from "../db/schema/index.js";
import { type JsonElement, parseJsonInSlices } from "../lib/json-slices.js";
import { type DeadLetterReason, ingestDeadLetters } from "../lib/metrics.js";
import { createSlicer } from "../lib/slices.js";
import {
  isRefusedByDatabase,
  type PartRecordsService,
} from "../modules/part-records/part-records.service.js";

type Source = { id: string; topic: string; customerId: string; plantId: string; ingestorId: string };
type Dead = {
  customerId: string;
  ingestorId: string;
  dataSourceId: string;
  topic: string;
  payload: string;
  reason: string;
  /** The reason's category (the metric's label; not stored). */
  kind: DeadLetterReason;
};

/** A dead letter as the log and the metrics see it: never its payload. */
export type DeadLetterNote = { kind: DeadLetterReason; reason: string; topic: string; dataSourceId: string };

/** Counts the dead letters kept and answers what the log says of them. */
function kept(dead: Dead[]): DeadLetterNote[] {
  for (const d of dead) ingestDeadLetters.inc({ reason: d.kind });
  return dead.map(({ kind, reason, topic, dataSourceId }) => ({ kind, reason, topic, dataSourceId }));
}

const PAYLOAD_MAX = 64 * 1024;

/** A payload, topic or reason as the dead-letter and sample tables can hold it. */
const storable = (text: string, max = PAYLOAD_MAX) => toStorableText(text.slice(0, max));
/** Messages kept per data source for the insight-mapping page. */
export const SAMPLES_PER_SOURCE = 20;
const SAMPLE_EVERY_MS = 1_000;

/** Where a record came from: its message, and where its text lies in the payload. */
type Origin = { topic: string; payload: string; source: Source; element?: JsonElement };

/** A record's text as it was received: its element of the message's array, or the whole payload. */
const textOf = (o: Origin) => (o.element ? o.payload.slice(o.element.start, o.element.end) : o.payload);

/**
 * From MQTT messages to stored part records: matches each message to its data source, parses it
 * (one record, or an array of records), stores the records per plant, and keeps what could not
 * be stored in the dead-letter table with the reason. A message's records beyond
 * INGEST_BATCH_MAX are not stored: they become one dead letter saying so, as POST /api/ingest
 * refuses a larger batch. Large messages are parsed and prepared in slices (lib/slices.ts), so
 * other clients' messages are answered meanwhile.
 */
export function createIngestLog(db: Db) {
  const lastSample = new Map<string, number>();

  async function sample(source: Source, topic: string, payload: string) {
    const now = Date.now();
    if (now - (lastSample.get(source.id) ?? 0) < SAMPLE_EVERY_MS) return;
    lastSample.set(source.id, now);
    await db
      .insert(dataSourceMessages)
      .values({ dataSourceId: source.id, topic: storable(topic), payload: storable(payload) });
    // Keep the newest few only.
    await db.execute(sql`delete from ${dataSourceMessages} where ${dataSourceMessages.dataSourceId} = ${source.id}
      and ${dataSourceMessages.id} not in (select ${dataSourceMessages.id} from ${dataSourceMessages}
        where ${dataSourceMessages.dataSourceId} = ${source.id} order by ${dataSourceMessages.receivedAt} desc limit ${SAMPLES_PER_SOURCE})`);
  }

  return {
    async store(
      packets: IPublishPacket[],
      sources: Source[],
      partRecords: PartRecordsService,
      topicDefaults: (topic: string) => { line?: string; station?: string },
      signal?: AbortSignal,
    ): Promise<DeadLetterNote[]> {
      const dead: Dead[] = [];
      const slicer = createSlicer({ signal });
      const byPlant = new Map<string, { source: Source; records: unknown[]; origins: Origin[] }>();
      for (const packet of packets) {
        const source = sources.find((s) => topicMatches(s.topic, packet.topic));
        if (!source) continue; // A topic no data source claims any more (deleted meanwhile).
        const payload = payloadText(packet);
        const base = {
          customerId: source.customerId,
          ingestorId: source.ingestorId,
          dataSourceId: source.id,
          topic: storable(packet.topic),
        };
        await sample(source, packet.topic, payload).catch(() => {});
        let elements: JsonElement[] | undefined;
        let items: unknown[];
        try {
          const parsed = await parseJsonInSlices(payload, { slicer });
          if (parsed.kind === "array") {
            elements = parsed.elements;
            items = elements.map((e) => e.value);
          } else items = [parsed.value];
        } catch (err) {
          // Stopped by the batcher's close between two slices: nothing is kept, nothing acknowledged.
          if (signal?.aborted) throw err;
          dead.push({
            ...base,
            payload: storable(payload),
            reason: storable(`payload is not JSON: ${(err as Error).message}`),
            kind: "not_json",
          });
          continue;
        }
        if (!items.length) {
          dead.push({
            ...base,
            payload: storable(payload),
            reason: "the message holds no records (an empty array)",
            kind: "no_records",
          });
          continue;
        }
        const beyond = elements?.[INGEST_BATCH_MAX];
        if (elements && beyond) {
          // The records that are not stored, as the JSON array they were in (as far as the table
          // holds: only that much of the payload is read).
          const end = elements[elements.length - 1]?.end ?? beyond.end;
          dead.push({
            ...base,
            payload: storable(`[${payload.slice(beyond.start, Math.min(end, beyond.start + PAYLOAD_MAX))}]`),
            reason: DEAD_LETTER_REASONS.tooManyRecords(elements.length),
            kind: "too_many_records",
          });
          elements = elements.slice(0, INGEST_BATCH_MAX);
          items = items.slice(0, INGEST_BATCH_MAX);
        }
        const defaults = topicDefaults(packet.topic);
        let group = byPlant.get(source.plantId);
        if (!group) {
          group = { source, records: [], origins: [] };
          byPlant.set(source.plantId, group);
        }
        for (const [i, item] of items.entries()) {
          await slicer.next();
          const withTopic =
            item && typeof item === "object" && !Array.isArray(item)
              ? {
                  ...(defaults.line && { line: defaults.line }),
                  ...(defaults.station && { station: defaults.station }),
                  ...item,
                }
              : item;
          group.records.push(withTopic);
          group.origins.push({ topic: packet.topic, payload, source, element: elements?.[i] });
        }
      }
      for (const { source, records, origins } of byPlant.values()) {
        const result = await partRecords.ingest(
          { customerId: source.customerId, plantId: source.plantId },
          records,
          {},
          { signal, transport: "mqtt" },
        );
        for (const r of result.rejected) {
          const o = origins[r.index];
          if (!o) continue;
          dead.push({
            customerId: o.source.customerId,
            ingestorId: o.source.ingestorId,
            dataSourceId: o.source.id,
            topic: storable(o.topic),
            payload: storable(textOf(o)),
            reason: storable(r.reason),
            kind: isRefusedByDatabase(r.reason) ? "database_refused" : "invalid_record",
          });
        }
      }
      if (!dead.length) return [];
      await db.insert(deadLetters).values(dead.map(({ kind: _, ...row }) => row));
      return kept(dead);
    },

    /**
     * Keeps one whole message as a dead letter when storing it failed in a way the parsing above
     * did not foresee (the database refused it): its payload as far as the table can hold it,
     * else the reason alone.
     */
    async deadLetter(packet: IPublishPacket, sources: Source[], reason: string): Promise<DeadLetterNote[]> {
      const source = sources.find((s) => topicMatches(s.topic, packet.topic));
      if (!source) return [];
      const row = {
        customerId: source.customerId,
        ingestorId: source.ingestorId,
        dataSourceId: source.id,
        topic: storable(packet.topic),
        payload: storable(payloadText(packet)),
        reason: storable(reason),
      };
      try {
        await db.insert(deadLetters).values(row);
      } catch {
        await db.insert(deadLetters).values({ ...row, payload: "" });
      }
      return kept([{ ...row, kind: "database_refused" }]);
    },
  };
}

function payloadText(packet: IPublishPacket) {
  return Buffer.isBuffer(packet.payload) ? packet.payload.toString("utf8") : String(packet.payload);
}
export type IngestLog = ReturnType<typeof createIngestLog>;
