import { describe, expect, it } from "vitest";
import { commonLimit, limitReader } from "./capLimits.js";

describe("limitReader", () => {
  it("reads one limit for every record, none, or one per record (non-finite = none there)", () => {
    expect(limitReader(3.5, 4, "UCL")(2)).toBe(3.5);
    expect(limitReader(null, 4, "UCL")(2)).toBeNull();
    expect(limitReader(undefined, 4, "UCL")(2)).toBeNull();
    expect(limitReader(Number.NaN, 4, "UCL")(2)).toBeNull();
    const perRecord = limitReader([1, Number.NaN, 3, Number.POSITIVE_INFINITY], 4, "UCL");
    expect([0, 1, 2, 3].map(perRecord)).toEqual([1, null, 3, null]);
  });

  it("throws when per-record limits do not number the records", () => {
    expect(() => limitReader(new Float64Array(10), 30, "UCL")).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
  });
});

describe("commonLimit", () => {
  it("is the one value the used records share, null without one, 'differ' with several", () => {
    const usl = limitReader([10.6, Number.NaN, 10.6, 10.7], 4, "USL");
    expect(commonLimit([0, 1, 2], usl)).toBe(10.6);
    expect(commonLimit([0, 1, 2, 3], usl)).toBe("differ");
    expect(commonLimit([1], usl)).toBeNull();
    expect(commonLimit([0, 1, 2, 3], limitReader(null, 4, "USL"))).toBeNull();
  });
});
