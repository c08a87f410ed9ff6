import { describe, expect, it } from "vitest";
import {
  AUDIT_ABSENT,
  AUDIT_EMPTY,
  AUDIT_VALUE_SHORT_CHARS,
  formatAuditValue,
  shortAuditValue,
} from "./audit-log.format";

describe("formatAuditValue", () => {
  it("writes each kind of recorded value on one line", () => {
    expect(formatAuditValue(undefined)).toBe(AUDIT_ABSENT);
    expect(formatAuditValue(null)).toBe(AUDIT_EMPTY);
    expect(formatAuditValue("Axle")).toBe("Axle");
    expect(formatAuditValue("")).toBe('""');
    expect(formatAuditValue(12.5)).toBe("12.5");
    expect(formatAuditValue(false)).toBe("false");
    expect(formatAuditValue(["a", 1])).toBe('["a",1]');
    expect(formatAuditValue({ ucl: 3, lcl: null })).toBe('{"ucl":3,"lcl":null}');
  });
});

describe("shortAuditValue", () => {
  it("keeps a short value whole and cuts a long one to the row's length with an ellipsis", () => {
    expect(shortAuditValue("12.5")).toEqual({ text: "12.5", isCut: false });
    const long = "x".repeat(AUDIT_VALUE_SHORT_CHARS + 1);
    const cut = shortAuditValue(long);
    expect(cut.isCut).toBe(true);
    expect(cut.text).toHaveLength(AUDIT_VALUE_SHORT_CHARS);
    expect(cut.text.endsWith("…")).toBe(true);
    expect(shortAuditValue("y".repeat(AUDIT_VALUE_SHORT_CHARS)).isCut).toBe(false);
  });
});
