import { RETENTION_DEFAULTS, RETENTION_MESSAGES } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../shared/api/client";
import {
  placeRetentionError,
  retentionFormBody,
  retentionFormDefaults,
  retentionFormErrors,
} from "./retention.form";

describe("Data retention form rules", () => {
  it("shows the days, an empty number for ever, and turns them back into the body", () => {
    const v = retentionFormDefaults(RETENTION_DEFAULTS);
    expect(v.partRecordsDays).toEqual({ days: "400", forever: false });
    expect(v.auditLogDays).toEqual({ days: "", forever: true });
    expect(retentionFormErrors(v)).toEqual({});
    expect(retentionFormBody(v)).toEqual(RETENTION_DEFAULTS);
  });

  it("says what is wrong with a field in the contract's words", () => {
    const v = retentionFormDefaults(RETENTION_DEFAULTS);
    expect(
      retentionFormErrors({
        ...v,
        partRecordsDays: { days: "3", forever: false },
        evaluationsDays: { days: " ", forever: false },
        resolvedAlertsDays: { days: "12.5", forever: false },
        auditLogDays: { days: "abc", forever: false },
      }),
    ).toEqual({
      partRecordsDays: RETENTION_MESSAGES.min("partRecordsDays"),
      evaluationsDays: RETENTION_MESSAGES.required("evaluationsDays"),
      resolvedAlertsDays: RETENTION_MESSAGES.whole("resolvedAlertsDays"),
      auditLogDays: RETENTION_MESSAGES.required("auditLogDays"),
    });
    // "Keep for ever" ignores whatever number is left in the field.
    expect(retentionFormErrors({ ...v, partRecordsDays: { days: "3", forever: true } })).toEqual({});
  });

  it("places a 400's field problem under its field, anything else above the form", () => {
    const refused = new ApiError(400, "Bad Request", "body.partRecordsDays: too short", {
      fields: [{ in: "body", field: "partRecordsDays", message: RETENTION_MESSAGES.min("partRecordsDays") }],
    });
    expect(placeRetentionError(refused)).toEqual({
      field: "partRecordsDays",
      message: RETENTION_MESSAGES.min("partRecordsDays"),
    });
    expect(placeRetentionError(new ApiError(500, "Server Error", "boom"))).toEqual({ message: "boom" });
  });
});
