import { z } from "zod";
import { ZId, zString } from "./common.js";
import { toStorableText } from "./common-texts.js";
import { ZPlantParams } from "./plants.js";

/**
 * Largest HTTP ingest batch (issue: batches up to 10,000 records), and the most records stored
 * from one MQTT message (issue 27 §2).
 */
export const INGEST_BATCH_MAX = 10_000;
/**
 * Largest JSON body of POST /api/ingest and payload of one MQTT message, in bytes (32 MiB):
 * INGEST_BATCH_MAX records of up to about 3,300 bytes each — a record of 100 measurements named
 * with 8 letters and written with 15 digits (`"Pressure":12.3456789012345,`, 28 bytes each) is
 * about 2,950 bytes with its part id, timestamp, line and station.
 */
export const INGEST_MAX_BYTES = 32 * 1_048_576;

/** Reasons of dead letters (shown on a data source's Insight page). */
export const DEAD_LETTER_REASONS = {
  /** Keeps an MQTT message's records beyond INGEST_BATCH_MAX: its payload is those records (cut to 64 KiB). */
  tooManyRecords: (count: number) =>
    `the message holds ${count.toLocaleString("en")} records, more than the ${INGEST_BATCH_MAX.toLocaleString("en")} ` +
    `one message may carry: records ${(INGEST_BATCH_MAX + 1).toLocaleString("en")} to ${count.toLocaleString("en")} were not stored`,
} as const;

/**
 * How far ahead of the server's clock a record's timestamp may be. A monitor judges the records
 * newer than its last evaluation's newest, and a line's last data is its newest record's time: one
 * record dated an hour ahead (a machine whose clock is wrong) would leave every monitor of its
 * station with "nothing new" and its line looking live for that hour. Beyond this the record is
 * refused with its reason (a dead letter over MQTT); within it, ordinary clock drift passes.
 */
export const INGEST_FUTURE_TOLERANCE_MS = 10 * 60_000;

/** Why a record dated too far ahead is refused (`aheadMs` past the server's clock at receipt). */
export const PART_RECORD_MESSAGES = {
  inFuture: (timestamp: string, aheadMs: number) =>
    `timestamp ${timestamp} is ${formatAhead(aheadMs)} ahead of the server's clock; at most ` +
    `${INGEST_FUTURE_TOLERANCE_MS / 60_000} minutes ahead is accepted (is the sending machine's clock set?)`,
} as const;

function formatAhead(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 120) return `${minutes} minutes`;
  const hours = Math.round(ms / 3_600_000);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(ms / 86_400_000).toLocaleString("en")} days`;
}

/** Bounds that keep one record from exhausting memory or the database. */
export const PART_RECORD_BOUNDS = { name: 200, value: 500, signals: 2_000 } as const;

const name = zString().trim().min(1).max(PART_RECORD_BOUNDS.name);
const finite = z.number().refine(Number.isFinite, "must be a finite number");
const signalMap = <T extends z.ZodType>(v: T) =>
  z
    .record(name, v)
    .refine(
      (m) => Object.keys(m).length <= PART_RECORD_BOUNDS.signals,
      `at most ${PART_RECORD_BOUNDS.signals} signals`,
    );

/**
 * A part record: one part at one station at one time (docs/monitoring.md "Part records"). `line` and
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
  results: signalMap(zString().trim().max(PART_RECORD_BOUNDS.value).nullable()).default({}),
  attributes: signalMap(zString().trim().max(PART_RECORD_BOUNDS.value).nullable()).default({}),
});
export type TPartRecord = z.infer<typeof ZPartRecord>;
export type TPartRecordInput = z.input<typeof ZPartRecord>;

/** POST /api/ingest: a JSON array of part records. Each is checked on its own. */
export const ZIngestBatch = z.array(z.unknown()).min(1).max(INGEST_BATCH_MAX);

export const ZIngestResult = z.object({
  stored: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), reason: zString() })),
});
export type TIngestResult = z.infer<typeof ZIngestResult>;

/** Turns a zod failure into one line a person can act on: "timestamp: Invalid ISO datetime". */
export function describeIssues(error: z.ZodError): string {
  // A path may hold the refused key itself (a signal name with a NUL): the answer must be storable.
  return toStorableText(
    error.issues
      .slice(0, 5)
      .map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`)
      .join("; "),
  );
}

// ---------------------------------------------------------------------------------------------
// CSV upload (POST /api/plants/:plantId/part-records/csv): one row per part record, one column
// per signal. The header rules live here so the upload dialog checks a file before sending it.

/** Largest CSV upload, in bytes (50 MiB). */
export const CSV_UPLOAD_MAX_BYTES = 50 * 1_048_576;
/** Rows handed to the ingest service at a time. */
export const CSV_BATCH_SIZE = 2_000;
/** Rejected rows listed in the answer; the rest are counted in `rejectedMore`. */
export const CSV_REJECTED_MAX = 1_000;

/** Columns that fill a record's own fields; every other column names a signal. */
export const CSV_FIXED_COLUMNS = ["line", "station", "partId", "modelNumber", "timestamp", "op"] as const;
export type TCsvFixedColumn = (typeof CSV_FIXED_COLUMNS)[number];
/** `result:Name`, `attr:Name`, `lower:Name`, `upper:Name`; a column without a prefix is a measurement. */
export const CSV_SIGNAL_PREFIXES = {
  result: "result",
  attr: "attribute",
  lower: "lower",
  upper: "upper",
} as const;

export type TCsvColumn =
  | { kind: "fixed"; field: TCsvFixedColumn }
  | { kind: "measurement" | "result" | "attribute" | "lower" | "upper"; name: string };

export const CSV_MESSAGES = {
  empty: "The file is empty: the first line must be a header row",
  noBody: "Send the CSV file as the request body, with Content-Type text/csv",
  missingColumn: (column: string) => `The CSV header has no ${column} column`,
  missingLine: "The CSV header has no line column: add one, or choose a Line for the whole file",
  missingStation: "The CSV header has no station column: add one, or choose a Station for the whole file",
  unnamedColumn: (position: number) => `Column ${position} of the header has no name`,
  unnamedSignal: (column: string) => `Column "${column}" names no signal after its prefix`,
  duplicateColumn: (column: string) => `Column "${column}" appears twice in the header`,
  nameTooLong: (position: number) =>
    `Column ${position} of the header is longer than ${PART_RECORD_BOUNDS.name} characters`,
  tooManyColumns: `The CSV has more than ${PART_RECORD_BOUNDS.signals} signal columns`,
  notCommaSeparated: "The header has one column containing ';': the file must be comma-separated",
  tooLarge: `The file is larger than ${CSV_UPLOAD_MAX_BYTES / 1_048_576} MB`,
  cellCount: (cells: number, columns: number) => `the row has ${cells} cells, the header has ${columns}`,
  notANumber: (column: string, cell: string) => `${column}: "${cell}" is not a number`,
  notAnOp: (cell: string) => `op: "${cell}" is not a whole number`,
  unreadable: (line: number, why: string) =>
    `The file could not be read past line ${line} (${why}); the rows before it were processed`,
  /** The summary of an upload stopped by Cancel (issue 32 §4): what was stored stays stored. */
  cancelled: (stored: number, line: number) =>
    `Cancelled: ${stored.toLocaleString("en-US")} ${stored === 1 ? "row was" : "rows were"} stored before Cancel and stay stored; rows after line ${line} were not read`,
  /** Beside the upload's bars while it runs (GET …/csv/{uploadId}/progress). */
  progress: (rowsRead: number, stored: number) =>
    `${rowsRead.toLocaleString("en-US")} ${rowsRead === 1 ? "row" : "rows"} read, ${stored.toLocaleString("en-US")} stored`,
  uploadNotFound: "CSV upload not found: it has ended or never started on this server",
  uploadIdTaken: "A CSV upload with this id is already running",
  tooManyUploads: (max: number) =>
    `${max} CSV uploads are already running for this customer: wait for one to end`,
  cancelling: "Cancelling… the rows read so far are being stored",
  confirmCloseTitle: "Cancel the upload?",
  confirmCloseText:
    "Closing stops the upload: the rows stored so far stay stored, the rest of the file is not read.",
  confirmCloseYes: "Cancel upload",
  confirmCloseNo: "Keep uploading",
} as const;

/**
 * Maps a CSV header to the part-record fields (README "CSV upload"): fixed columns by name
 * (letter case ignored), `result:` / `attr:` / `lower:` / `upper:` prefixes, any other column a
 * measurement. Answers the first problem instead when the header cannot make records: partId and
 * timestamp are required, line and station too unless a default is chosen for the file.
 */
export function mapCsvHeader(
  header: readonly string[],
  defaults: { line?: string; station?: string } = {},
): { columns: TCsvColumn[] } | { error: string } {
  const cells = header.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, "") : h).trim());
  if (cells.length === 0 || (cells.length === 1 && cells[0] === "")) return { error: CSV_MESSAGES.empty };
  if (cells.length === 1 && cells[0]?.includes(";")) return { error: CSV_MESSAGES.notCommaSeparated };
  const columns: TCsvColumn[] = [];
  const seen = new Set<string>();
  for (const [i, cell] of cells.entries()) {
    if (cell === "") return { error: CSV_MESSAGES.unnamedColumn(i + 1) };
    if (cell.length > PART_RECORD_BOUNDS.name + 10) return { error: CSV_MESSAGES.nameTooLong(i + 1) };
    const fixed = CSV_FIXED_COLUMNS.find((f) => f.toLowerCase() === cell.toLowerCase());
    let column: TCsvColumn;
    if (fixed) column = { kind: "fixed", field: fixed };
    else {
      const m = /^(result|attr|lower|upper):(.*)$/i.exec(cell);
      const prefix = m?.[1]?.toLowerCase() as keyof typeof CSV_SIGNAL_PREFIXES | undefined;
      const name = (m ? (m[2] ?? "") : cell).trim();
      if (name === "") return { error: CSV_MESSAGES.unnamedSignal(cell) };
      if (name.length > PART_RECORD_BOUNDS.name) return { error: CSV_MESSAGES.nameTooLong(i + 1) };
      column = { kind: prefix ? CSV_SIGNAL_PREFIXES[prefix] : "measurement", name };
    }
    const key = column.kind === "fixed" ? column.field : `${column.kind}:${column.name}`;
    if (seen.has(key)) return { error: CSV_MESSAGES.duplicateColumn(cell) };
    seen.add(key);
    columns.push(column);
  }
  const has = (field: TCsvFixedColumn) => columns.some((c) => c.kind === "fixed" && c.field === field);
  if (!has("partId")) return { error: CSV_MESSAGES.missingColumn("partId") };
  if (!has("timestamp")) return { error: CSV_MESSAGES.missingColumn("timestamp") };
  if (!has("line") && !defaults.line?.trim()) return { error: CSV_MESSAGES.missingLine };
  if (!has("station") && !defaults.station?.trim()) return { error: CSV_MESSAGES.missingStation };
  if (columns.filter((c) => c.kind !== "fixed").length > PART_RECORD_BOUNDS.signals)
    return { error: CSV_MESSAGES.tooManyColumns };
  return { columns };
}

/** CSV uploads of one customer that may run at once with an upload id (progress and Cancel). */
export const CSV_UPLOADS_RUNNING_MAX = 10;

/**
 * Line and Station for the rows of a file that has no such column (or an empty cell); `upload`, an
 * id the client makes up (a uuid), lets it read the upload's progress and cancel it while it runs.
 */
export const ZCsvUploadQuery = z.strictObject({
  line: name.optional(),
  station: name.optional(),
  upload: ZId.optional(),
});
export type TCsvUploadQuery = z.infer<typeof ZCsvUploadQuery>;

export const ZCsvUploadResult = ZIngestResult.pick({ stored: true, duplicates: true }).extend({
  /** Data rows read (the header and blank lines not counted). */
  rows: z.number().int(),
  /** Row = 1-based line of the file where the row ends (the header is line 1). */
  rejected: z.array(z.object({ row: z.number().int(), reason: zString() })),
  /** Rejected rows beyond the first CSV_REJECTED_MAX. */
  rejectedMore: z.number().int(),
  /** Why the file could not be read to its end; null when it was. */
  error: zString().nullable(),
  /**
   * Set when Cancel stopped the upload: the last line of the file that was processed (its rows
   * stored or rejected); rows after it were not read. Null when the upload was not cancelled.
   */
  cancelledAfterLine: z.number().int().nullable(),
});
export type TCsvUploadResult = z.infer<typeof ZCsvUploadResult>;

/** GET and POST /api/plants/{plantId}/part-records/csv/{uploadId}/…: the id the upload was sent with. */
export const ZCsvUploadParams = ZPlantParams.extend({ uploadId: ZId });
export type TCsvUploadParams = z.infer<typeof ZCsvUploadParams>;

/** A running CSV upload's counts so far (GET …/csv/{uploadId}/progress, POST …/cancel). */
export const ZCsvUploadProgress = ZCsvUploadResult.pick({ stored: true, duplicates: true }).extend({
  /** Data rows read so far (the header and blank lines not counted). */
  rowsRead: z.number().int(),
  /** Rows rejected so far, all of them (not only the listed ones). */
  rejected: z.number().int(),
  /** False once Cancel was asked: the import is storing the rows in hand and will answer the upload. */
  isRunning: z.boolean(),
});
export type TCsvUploadProgress = z.infer<typeof ZCsvUploadProgress>;
