import { CSV_MESSAGES, CSV_UPLOADS_RUNNING_MAX, type TCsvUploadProgress } from "@linewatch/contracts";
import { AppError, conflict } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";

/** What a running import tells the registry: its counts so far, read when asked. */
export type CsvUploadCounts = Omit<TCsvUploadProgress, "isRunning">;

type Entry = {
  plantId: string;
  counts: () => CsvUploadCounts;
  controller: AbortController;
};

const notFound = () => new AppError("NOT_FOUND", CSV_MESSAGES.uploadNotFound);

/**
 * The CSV uploads running in this process that were sent with an upload id (issue 32 §4: "show
 * rows read and stored, and let Cancel stop it"), by customer and id. An entry lives exactly as
 * long as its import: `track` adds it, the handle's `end` removes it. The registry is per server
 * instance — with several API instances behind a balancer, progress and Cancel reach the upload
 * only through the same instance (sticky sessions); the upload itself works on any (decision 0314).
 * Bounded: at most CSV_UPLOADS_RUNNING_MAX tracked uploads per customer.
 */
export function createCsvUploadProgress(opts: { maxPerCustomer?: number } = {}) {
  const maxPerCustomer = opts.maxPerCustomer ?? CSV_UPLOADS_RUNNING_MAX;
  /** customer id → upload id → entry */
  const running = new Map<string, Map<string, Entry>>();

  const find = (ctx: AuthContext, plantId: string, uploadId: string): Entry => {
    const entry = running.get(ctx.customerId)?.get(uploadId);
    // Another customer's upload, or one on another plant, is not found, like one that never was.
    if (!entry || entry.plantId !== plantId) throw notFound();
    return entry;
  };
  const snapshot = (entry: Entry): TCsvUploadProgress => ({
    ...entry.counts(),
    isRunning: !entry.controller.signal.aborted,
  });

  return {
    /**
     * Registers an import before it reads its body. Its `signal` aborts when Cancel is asked;
     * `end` must be called when the import ends, however it ends.
     */
    track(ctx: AuthContext, plantId: string, uploadId: string, counts: () => CsvUploadCounts) {
      let ofCustomer = running.get(ctx.customerId);
      if (ofCustomer?.has(uploadId)) throw conflict(CSV_MESSAGES.uploadIdTaken);
      if ((ofCustomer?.size ?? 0) >= maxPerCustomer) {
        throw new AppError("TOO_MANY_REQUESTS", CSV_MESSAGES.tooManyUploads(maxPerCustomer));
      }
      if (!ofCustomer) {
        ofCustomer = new Map();
        running.set(ctx.customerId, ofCustomer);
      }
      const entry: Entry = { plantId, counts, controller: new AbortController() };
      ofCustomer.set(uploadId, entry);
      const customerId = ctx.customerId;
      return {
        signal: entry.controller.signal,
        end() {
          const map = running.get(customerId);
          if (map?.get(uploadId) !== entry) return;
          map.delete(uploadId);
          if (map.size === 0) running.delete(customerId);
        },
      };
    },

    /** GET …/csv/{uploadId}/progress: the counts so far; 404 once the import has ended. */
    progress(ctx: AuthContext, plantId: string, uploadId: string): TCsvUploadProgress {
      return snapshot(find(ctx, plantId, uploadId));
    },

    /**
     * POST …/csv/{uploadId}/cancel: the import stops reading, stores the rows in hand and answers
     * the upload with what it did. Asking twice is the same as asking once.
     */
    cancel(ctx: AuthContext, plantId: string, uploadId: string): TCsvUploadProgress {
      const entry = find(ctx, plantId, uploadId);
      entry.controller.abort();
      return snapshot(entry);
    },
  };
}
export type CsvUploadProgress = ReturnType<typeof createCsvUploadProgress>;
