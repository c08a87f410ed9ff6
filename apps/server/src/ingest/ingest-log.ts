import { DEAD_LETTER_REASONS, INGEST_BATCH_MAX, toStorableText } from "@linewatch/contracts";
import type { IPublishPacket } from "mqtt";
import { type JsonElement, parseJsonInSlices } from "../lib/json-slices.js";
import { type DeadLetterReason, ingestDeadLetters } from "../lib/metrics.js";
import { createSlicer } from "../lib/slices.js";
import type { DeadLetterRow } from "../modules/part-records/part-records.repo.js";
import {
  isRefusedByDatabase,
  type PartRecordsService,
} from "../modules/part-records/part-records.service.js";
import type { IngestSource } from "./sources.js";

type Source = IngestSource;
/** A message and the data source its topic was resolved to where it arrived (sources.ts); none: skipped. */
export type IngestMessage = { packet: IPublishPacket; source: Source | undefined };
type Dead = DeadLetterRow & {
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
const SAMPLE_EVERY_MS = 1_000;

/** Where a record came from: its message, and where its text lies in the payload. */
type Origin = { topic: string; payload: string; source: Source; element?: JsonElement };

/** A record's text as it was received: its element of the message's array, or the whole payload. */
const textOf = (o: Origin) => (o.element ? o.payload.slice(o.element.start, o.element.end) : o.payload);

/**
 * From MQTT messages to stored part records: takes each message with the data source its topic
 * was resolved to where it arrived (sources.ts), parses it (one record, or an array of records),
 * and has modules/part-records store the records per plant, keep what could not be stored as a
 * dead letter with the reason, and keep a sample of each data source's messages: no SQL here.
 * A message's records beyond INGEST_BATCH_MAX are not stored: they become one dead letter saying
 * so, as POST /api/ingest refuses a larger batch. Large messages are parsed and prepared in
 * slices (lib/slices.ts), so other clients' messages are answered meanwhile.
 */
export function createIngestLog(partRecords: PartRecordsService) {
  const lastSample = new Map<string, number>();

  async function sample(source: Source, topic: string, payload: string) {
    const now = Date.now();
    if (now - (lastSample.get(source.id) ?? 0) < SAMPLE_EVERY_MS) return;
    lastSample.set(source.id, now);
    await partRecords.keepSample({
      dataSourceId: source.id,
      topic: storable(topic),
      payload: storable(payload),
    });
  }

  return {
    async store(
      messages: IngestMessage[],
      topicDefaults: (topic: string) => { line?: string; station?: string },
      signal?: AbortSignal,
    ): Promise<DeadLetterNote[]> {
      const dead: Dead[] = [];
      const slicer = createSlicer({ signal });
      const byPlant = new Map<string, { source: Source; records: unknown[]; origins: Origin[] }>();
      for (const { packet, source } of messages) {
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
      await partRecords.keepDeadLetters(dead.map(({ kind: _, ...row }) => row));
      return kept(dead);
    },

    /**
     * Keeps one whole message as a dead letter when storing it failed in a way the parsing above
     * did not foresee (the database refused it): its payload as far as the table can hold it,
     * else the reason alone.
     */
    async deadLetter({ packet, source }: IngestMessage, reason: string): Promise<DeadLetterNote[]> {
      if (!source) return [];
      const row = {
        customerId: source.customerId,
        ingestorId: source.ingestorId,
        dataSourceId: source.id,
        topic: storable(packet.topic),
        payload: storable(payloadText(packet)),
        reason: storable(reason),
      };
      await partRecords.keepDeadLetter(row);
      return kept([{ ...row, kind: "database_refused" }]);
    },
  };
}

function payloadText(packet: IPublishPacket) {
  return Buffer.isBuffer(packet.payload) ? packet.payload.toString("utf8") : String(packet.payload);
}
export type IngestLog = ReturnType<typeof createIngestLog>;
