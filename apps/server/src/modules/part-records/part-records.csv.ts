import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import {
  CSV_BATCH_SIZE,
  CSV_MESSAGES,
  CSV_REJECTED_MAX,
  CSV_UPLOAD_MAX_BYTES,
  mapCsvHeader,
  type TCsvColumn,
  type TCsvUploadQuery,
  type TCsvUploadResult,
  ZPartRecord,
} from "@linewatch/contracts";
import { type CsvError, parse } from "csv-parse";
import type { z } from "zod";
import { badRequest } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";
import type { PlantsService } from "../plants/plants.service.js";
import type { CsvUploadProgress } from "./part-records.csv-progress.js";
import type { PartRecordsService } from "./part-records.service.js";

/** One CSV row may hold at most this many bytes (a never-closed quote stops here, not at 50 MB). */
const ROW_MAX_BYTES = 1_048_576;
/** Parse errors after which nothing more of the file can be read. */
const FATAL_PARSE_ERRORS = new Set(["CSV_QUOTE_NOT_CLOSED", "CSV_MAX_RECORD_SIZE"]);
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const WHOLE = /^\+?\d+$/;

/** An error the HTTP error handler answers with its status (413 has no AppError code). */
const httpError = (statusCode: number, message: string) => Object.assign(new Error(message), { statusCode });

/** How a column is written in the header, for reasons: `Torque`, `result:Result`, `lower:Torque`. */
function label(c: TCsvColumn): string {
  switch (c.kind) {
    case "fixed":
      return c.field;
    case "measurement":
      return c.name;
    case "attribute":
      return `attr:${c.name}`;
    default:
      return `${c.kind}:${c.name}`;
  }
}

/** A zod path of a part record in the CSV's words: measurements.Torque → Torque. */
function columnOfPath(path: readonly PropertyKey[]): string {
  const [group, name, side] = path.map(String);
  if (group === "measurements" && name) return name;
  if (group === "results" && name) return `result:${name}`;
  if (group === "attributes" && name) return `attr:${name}`;
  if (group === "limits" && name) return side ? `${side}:${name}` : name;
  return path.map(String).join(".");
}

function describeRow(error: z.ZodError, timestamp: string | undefined): string {
  return error.issues
    .slice(0, 5)
    .map((i) => {
      const column = columnOfPath(i.path);
      if (column === "timestamp" && timestamp !== undefined)
        return `timestamp: "${timestamp}" is not an ISO 8601 date-time with a time zone (e.g. 2026-11-22T10:15:03Z)`;
      return column ? `${column}: ${i.message}` : i.message;
    })
    .join("; ");
}

type RecordInput = {
  line?: string;
  station?: string;
  partId?: string;
  modelNumber?: string;
  timestamp?: string;
  op?: number;
  measurements: Record<string, number>;
  limits: Record<string, { lower?: number; upper?: number }>;
  results: Record<string, string>;
  attributes: Record<string, string>;
};

/**
 * One data row as a part record (README "CSV upload"): an empty cell is no value, numbers are
 * plain decimals. Answers the reason instead when the row cannot be a record.
 */
export function csvRowToRecord(
  columns: readonly TCsvColumn[],
  cells: readonly string[],
): RecordInput | string {
  if (cells.length > columns.length && cells.slice(columns.length).some((c) => c !== "")) {
    return CSV_MESSAGES.cellCount(cells.length, columns.length);
  }
  const r: RecordInput = { measurements: {}, limits: {}, results: {}, attributes: {} };
  for (const [i, c] of columns.entries()) {
    const cell = cells[i] ?? "";
    if (cell === "") continue;
    switch (c.kind) {
      case "fixed":
        if (c.field === "op") {
          if (!WHOLE.test(cell)) return CSV_MESSAGES.notAnOp(cell);
          r.op = Number(cell);
        } else if (c.field === "timestamp") {
          // Spreadsheets write "2026-11-22 10:15:03Z": the ISO form has a T there.
          r.timestamp = /^\d{4}-\d{2}-\d{2} \d/.test(cell) ? cell.replace(" ", "T") : cell;
        } else r[c.field] = cell;
        break;
      case "measurement":
      case "lower":
      case "upper": {
        const n = Number(cell);
        if (!DECIMAL.test(cell) || !Number.isFinite(n)) return CSV_MESSAGES.notANumber(label(c), cell);
        if (c.kind === "measurement") r.measurements[c.name] = n;
        else r.limits[c.name] = { ...r.limits[c.name], [c.kind]: n };
        break;
      }
      case "result":
        r.results[c.name] = cell;
        break;
      case "attribute":
        r.attributes[c.name] = cell;
        break;
    }
  }
  return r;
}

/** Counts the bytes that pass and fails once there are more than `max`. */
function byteLimit(max: number) {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > max) callback(httpError(413, CSV_MESSAGES.tooLarge));
      else callback(null, chunk);
    },
  });
}

/**
 * CSV upload of part records to a plant: the body is read as a stream, rows are parsed by
 * csv-parse and stored in batches through the ingest service, so a 50 MB file never sits in
 * memory whole. The header is checked before anything is stored.
 *
 * Sent with an upload id (query `upload`), the import is tracked in `uploads` while it runs: its
 * counts can be read, and Cancel stops it (issue 32 §4). Cancel is checked before each row: the
 * import stops reading the body, stores the batch in hand (rows already read and checked, at most
 * CSV_BATCH_SIZE) and answers with `cancelledAfterLine`, the last line processed. Batches stored
 * before stay stored: an upload is not one transaction (README "CSV upload").
 */
export function createPartRecordsCsv(deps: {
  partRecords: PartRecordsService;
  plants: PlantsService;
  uploads: CsvUploadProgress;
}) {
  return {
    async importCsv(
      ctx: AuthContext,
      plantId: string,
      body: Readable | undefined,
      opts: { defaults?: TCsvUploadQuery; declaredBytes?: number; maxBytes?: number } = {},
    ): Promise<TCsvUploadResult> {
      const maxBytes = opts.maxBytes ?? CSV_UPLOAD_MAX_BYTES;
      const { upload: uploadId, ...defaults } = opts.defaults ?? {};
      await deps.plants.get(ctx, plantId);
      if (!body || typeof body.pipe !== "function") throw badRequest(CSV_MESSAGES.noBody);
      if (opts.declaredBytes !== undefined && opts.declaredBytes > maxBytes) {
        throw httpError(413, CSV_MESSAGES.tooLarge);
      }
      const target = { customerId: ctx.customerId, plantId };

      let rows = 0;
      let stored = 0;
      let duplicates = 0;
      let rejectedMore = 0;
      const rejected: TCsvUploadResult["rejected"] = [];
      const parseRejects: { row: number; reason: string }[] = [];
      // Registered before the body is read, so the client's first progress request finds it.
      const tracked = uploadId
        ? deps.uploads.track(ctx, plantId, uploadId, () => ({
            rowsRead: rows + parseRejects.length,
            stored,
            duplicates,
            rejected: rejected.length + rejectedMore + parseRejects.length,
          }))
        : undefined;
      try {
        const parser = parse({
          bom: true,
          trim: true,
          skip_empty_lines: true,
          skip_records_with_empty_values: true,
          relax_column_count: true,
          record_delimiter: ["\r\n", "\n", "\r"],
          max_record_size: ROW_MAX_BYTES,
          skip_records_with_error: true,
          info: true,
        });
        const limiter = byteLimit(maxBytes);
        let fatal: { code: string; message: string } | undefined;
        let headerError: string | undefined;
        parser.on("skip", (err: CsvError & { lines?: number; records?: number }) => {
          if (err.records === 0) headerError ??= `The header row could not be read: ${err.message}`;
          else if (FATAL_PARSE_ERRORS.has(err.code)) fatal ??= err;
          else parseRejects.push({ row: err.lines ?? 0, reason: err.message });
        });
        // A failing limiter (too large) or an aborted request ends the parse with that error.
        limiter.on("error", (err) => parser.destroy(err));
        body.on("error", (err) => parser.destroy(err));
        body.pipe(limiter).pipe(parser);
        /** Stops reading; the rest of the body is read and dropped so the answer can still be sent. */
        const stopReading = () => {
          body.unpipe(limiter);
          limiter.destroy();
          body.resume();
        };
        // Cancel: stop reading now (the loop may be waiting for bytes that are slow to come) and
        // end the parse; the loop leaves before its next row, so rows after Cancel are not taken.
        const cancelled = tracked?.signal;
        cancelled?.addEventListener(
          "abort",
          () => {
            stopReading();
            if (!parser.writableEnded) parser.end();
          },
          { once: true },
        );

        let columns: TCsvColumn[] | undefined;
        let lastLine = 0;
        const reject = (row: number, reason: string) => {
          if (rejected.length < CSV_REJECTED_MAX) rejected.push({ row, reason });
          else rejectedMore++;
        };
        let batch: unknown[] = [];
        let batchRows: number[] = [];
        const flush = async () => {
          if (!batch.length) return;
          const result = await deps.partRecords.ingest(target, batch, defaults, { transport: "csv" });
          stored += result.stored;
          duplicates += result.duplicates;
          for (const r of result.rejected) reject(batchRows[r.index] ?? 0, r.reason);
          batch = [];
          batchRows = [];
        };

        let stopped: Error | undefined;
        try {
          for await (const { record, info } of parser as AsyncIterable<{
            record: string[];
            info: { lines: number };
          }>) {
            if (headerError || cancelled?.aborted) break;
            if (!columns) {
              const mapped = mapCsvHeader(record, defaults);
              if ("error" in mapped) {
                headerError = mapped.error;
                break;
              }
              columns = mapped.columns;
              lastLine = info.lines;
              continue;
            }
            rows++;
            lastLine = info.lines;
            const built = csvRowToRecord(columns, record);
            if (typeof built === "string") {
              reject(info.lines, built);
              continue;
            }
            const parsed = ZPartRecord.safeParse(built);
            if (!parsed.success) {
              reject(info.lines, describeRow(parsed.error, built.timestamp));
              continue;
            }
            batch.push(built);
            batchRows.push(info.lines);
            if (batch.length >= CSV_BATCH_SIZE) await flush();
          }
        } catch (err) {
          stopped = err as Error;
        }
        const isCancelled = !!cancelled?.aborted && !headerError;
        if (isCancelled) stopReading();
        else if (headerError) {
          stopReading();
          throw badRequest(headerError);
        } else if (stopped && !columns) {
          if ((stopped as { statusCode?: number }).statusCode === 413) stopReading();
          throw stopped;
        } else if (stopped && (stopped as { statusCode?: number }).statusCode !== 413) {
          throw stopped; // aborted upload
        } else if (stopped) stopReading();
        else if (!columns) throw badRequest(CSV_MESSAGES.empty);
        // The batch in hand is stored, cancelled or not: its rows were read before Cancel.
        await flush();
        // Rows the parser refused are counted with the rows read, those past Cancel's line excepted.
        for (const r of parseRejects.splice(0)) {
          if (isCancelled && r.row > lastLine) continue;
          rows++;
          reject(r.row, r.reason);
        }
        rejected.sort((a, b) => a.row - b.row);
        const error = isCancelled
          ? null
          : stopped
            ? `${CSV_MESSAGES.tooLarge}: rows after line ${lastLine} were not read`
            : fatal
              ? CSV_MESSAGES.unreadable(lastLine, fatal.message)
              : null;
        const cancelledAfterLine = isCancelled ? lastLine : null;
        return { stored, duplicates, rows, rejected, rejectedMore, error, cancelledAfterLine };
      } finally {
        tracked?.end();
      }
    },
  };
}
export type PartRecordsCsv = ReturnType<typeof createPartRecordsCsv>;
