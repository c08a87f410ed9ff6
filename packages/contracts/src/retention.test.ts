import { describe, expect, it } from "vitest";
import { ZRetentionBody } from "./retention.js";
import {
  RETENTION_BOUNDS,
  RETENTION_DEFAULTS,
  RETENTION_MESSAGES,
  RETENTION_TEXTS,
  retentionDaysError,
  shortenedRetention,
} from "./retention-texts.js";

const messages = (body: unknown) => {
  const r = ZRetentionBody.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe("retention (issue 31 §2)", () => {
  it("takes the defaults, whole days in bounds, and null for keep for ever", () => {
    expect(messages(RETENTION_DEFAULTS)).toEqual([]);
    expect(
      messages({ partRecordsDays: 7, evaluationsDays: 3650, resolvedAlertsDays: null, auditLogDays: 365 }),
    ).toEqual([]);
  });

  it("refuses too short, too long, fractions, missing and unknown fields with the field's words", () => {
    expect(messages({ ...RETENTION_DEFAULTS, partRecordsDays: 6 })).toEqual([
      RETENTION_MESSAGES.min("partRecordsDays"),
    ]);
    expect(RETENTION_MESSAGES.min("partRecordsDays")).toBe("Part records: at least 7 days");
    expect(messages({ ...RETENTION_DEFAULTS, auditLogDays: 3651 })).toEqual([
      RETENTION_MESSAGES.max("auditLogDays"),
    ]);
    expect(messages({ ...RETENTION_DEFAULTS, evaluationsDays: 30.5 })).toEqual([
      RETENTION_MESSAGES.whole("evaluationsDays"),
    ]);
    const { resolvedAlertsDays: _, ...missing } = RETENTION_DEFAULTS;
    expect(messages(missing)).toEqual([RETENTION_MESSAGES.required("resolvedAlertsDays")]);
    expect(messages({ ...RETENTION_DEFAULTS, extra: 1 })).toHaveLength(1);
    expect(messages({ ...RETENTION_DEFAULTS, partRecordsDays: "400" })).toEqual([
      RETENTION_MESSAGES.required("partRecordsDays"),
    ]);
  });

  it("checks a field in the form with the schema's rule", () => {
    expect(retentionDaysError("resolvedAlertsDays", RETENTION_BOUNDS.min.resolvedAlertsDays - 1)).toBe(
      RETENTION_MESSAGES.min("resolvedAlertsDays"),
    );
    expect(retentionDaysError("partRecordsDays", Number.NaN)).toBe(
      RETENTION_MESSAGES.required("partRecordsDays"),
    );
    expect(retentionDaysError("partRecordsDays", 1.5)).toBe(RETENTION_MESSAGES.whole("partRecordsDays"));
    expect(retentionDaysError("auditLogDays", null)).toBeNull();
    expect(retentionDaysError("auditLogDays", 400)).toBeNull();
  });

  it("names the horizons a change shortens: a smaller number, or a number where it was for ever", () => {
    expect(shortenedRetention(RETENTION_DEFAULTS, RETENTION_DEFAULTS)).toEqual([]);
    expect(
      shortenedRetention(RETENTION_DEFAULTS, {
        partRecordsDays: 30,
        evaluationsDays: 120,
        resolvedAlertsDays: null,
        auditLogDays: 730,
      }),
    ).toEqual([
      { field: "partRecordsDays", days: 30 },
      { field: "auditLogDays", days: 730 },
    ]);
    expect(RETENTION_TEXTS.confirmLine("partRecordsDays", 30)).toBe(
      "Part records: records older than 30 days will be deleted at the next housekeeping run.",
    );
  });
});
