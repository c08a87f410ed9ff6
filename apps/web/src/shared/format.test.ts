import { describe, expect, it } from "vitest";
import { formatDateTime } from "./format";

describe("formatDateTime", () => {
  it("shows the instant in the plant's time zone, with the zone", () => {
    expect(formatDateTime("2026-11-22T10:15:03Z", "Europe/Berlin")).toBe("2026-11-22 11:15:03 GMT+1");
    expect(formatDateTime("2026-07-01T00:00:00Z", "America/Detroit")).toBe("2026-06-30 20:00:00 EDT");
  });
});
