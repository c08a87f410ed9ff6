import { randomUUID } from "node:crypto";
import { CSV_MESSAGES } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import type { AuthContext } from "../../src/modules/auth/auth.service.js";
import { createCsvUploadProgress } from "../../src/modules/part-records/part-records.csv-progress.js";

const ctxOf = (customerId: string) =>
  ({ customerId, userId: randomUUID(), isAdministrator: true }) as AuthContext;
const counts = () => ({ rowsRead: 1, stored: 0, duplicates: 0, rejected: 0 });

describe("CSV upload registry", () => {
  it("holds at most maxPerCustomer running uploads per customer, and frees a place when one ends", () => {
    const uploads = createCsvUploadProgress({ maxPerCustomer: 2 });
    const [a, b] = [ctxOf(randomUUID()), ctxOf(randomUUID())];
    const plant = randomUUID();
    const first = uploads.track(a, plant, randomUUID(), counts);
    uploads.track(a, plant, randomUUID(), counts);
    expect(() => uploads.track(a, plant, randomUUID(), counts)).toThrow(CSV_MESSAGES.tooManyUploads(2));
    // Another customer has places of its own.
    uploads.track(b, plant, randomUUID(), counts);
    first.end();
    expect(() => uploads.track(a, plant, randomUUID(), counts)).not.toThrow();
  });

  it("finds an upload only by its customer and plant; Cancel aborts its signal; end removes it", () => {
    const uploads = createCsvUploadProgress();
    const a = ctxOf(randomUUID());
    const [plant, id] = [randomUUID(), randomUUID()];
    const tracked = uploads.track(a, plant, id, counts);
    expect(uploads.progress(a, plant, id)).toEqual({ ...counts(), isRunning: true });
    expect(() => uploads.progress(ctxOf(randomUUID()), plant, id)).toThrow(CSV_MESSAGES.uploadNotFound);
    expect(() => uploads.progress(a, randomUUID(), id)).toThrow(CSV_MESSAGES.uploadNotFound);
    expect(() => uploads.track(a, plant, id, counts)).toThrow(CSV_MESSAGES.uploadIdTaken);
    expect(uploads.cancel(a, plant, id).isRunning).toBe(false);
    expect(tracked.signal.aborted).toBe(true);
    tracked.end();
    expect(() => uploads.progress(a, plant, id)).toThrow(CSV_MESSAGES.uploadNotFound);
  });
});
