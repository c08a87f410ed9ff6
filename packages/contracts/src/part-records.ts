import { z } from "zod";

/** Largest HTTP ingest batch (issue: batches up to 10,000 records). */
export const INGEST_BATCH_MAX = 10_000;
/** Bounds that keep one record from exhausting memory or the database. */
export const PART_RECORD_BOUNDS = { name: 200, value: 500, signals: 2_000 } as const;

const name = z.string().trim().min(1).max(PART_RECORD_BOUNDS.name);
const finite = z.number().refine(Number.isFinite, "must be a finite number");
const signalMap = <T extends z.ZodType>(v: T) =>
  z
    .record(name, v)
    .refine(
      (m) => Object.keys(m).length <= PART_RECORD_BOUNDS.signals,
      `at most ${PART_RECORD_BOUNDS.signals} signals`,
    );

/**
 * A part record: one part at one station at one time (monitoring.md "Part records"). `line` and
 * `station` may come from the topic instead; the body wins when both are present.
 */
export const ZPartRecord = z.strictObject({
  line: name.optional(),
  station: name.optional(),
  partId: name,
  modelNumber: name.nullable().optional(),
  timestamp: z.iso.datetime({ offset: true }),
  op: z.number().int().min(1).max(32_767).default(1),
  measurements: signalMap(finite.nullable()).default({}),
  limits: signalMap(
    z.strictObject({ lower: finite.nullable().optional(), upper: finite.nullable().optional() }),
  ).default({}),
  results: signalMap(z.string().trim().max(PART_RECORD_BOUNDS.value).nullable()).default({}),
  attributes: signalMap(z.string().trim().max(PART_RECORD_BOUNDS.value).nullable()).default({}),
});
export type TPartRecord = z.infer<typeof ZPartRecord>;
export type TPartRecordInput = z.input<typeof ZPartRecord>;

/** POST /api/ingest: a JSON array of part records. Each is checked on its own. */
export const ZIngestBatch = z.array(z.unknown()).min(1).max(INGEST_BATCH_MAX);

export const ZIngestResult = z.object({
  stored: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), reason: z.string() })),
});
export type TIngestResult = z.infer<typeof ZIngestResult>;

/** Turns a zod failure into one line a person can act on: "timestamp: Invalid ISO datetime". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`)
    .join("; ");
}
