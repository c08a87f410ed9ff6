import { newMonitorForm, previewPeriodOf, type TMonitorFormValues } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import {
  isSignalSelectionValid,
  minutesOfMs,
  missingPartAttributes,
  msOfMinutes,
  parseWholeNumberInput,
  previewRequestOf,
  resultAssociationOf,
  resultAssociationWarningText,
  selectedSignalIds,
} from "./filters.logic";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const LINE = "00000000-0000-4000-8000-000000000010";
const S1 = "00000000-0000-4000-8000-000000000101";
const S2 = "00000000-0000-4000-8000-000000000102";
const S3 = "00000000-0000-4000-8000-000000000103";
const G1 = "00000000-0000-4000-8000-000000000301";
const A1 = "00000000-0000-4000-8000-000000000201";

const form = (over: Partial<TMonitorFormValues> = {}): TMonitorFormValues => ({
  ...newMonitorForm("mvd", LINE, { now: NOW }),
  signal_uuids: [S1, S2],
  ...over,
});
const empty = { pass: [], fail: [], other: [] };
const entry = (value: string) => ({ value, failureMode: null });

describe("parseWholeNumberInput (requirements.md monitor-forms §5 Period: whole non-negative numbers, negative input ignored)", () => {
  it("takes digits, refuses signs, decimals and letters, and reads empty as nothing to commit", () => {
    expect(parseWholeNumberInput("150")).toBe(150);
    expect(parseWholeNumberInput(" 0 ")).toBe(0);
    expect(parseWholeNumberInput("")).toBeNull();
    expect(parseWholeNumberInput("-5")).toBeUndefined();
    expect(parseWholeNumberInput("1.5")).toBeUndefined();
    expect(parseWholeNumberInput("1e3")).toBeUndefined();
    expect(parseWholeNumberInput("99999999999999999999")).toBeUndefined();
  });

  it("converts minutes and milliseconds", () => {
    expect(msOfMinutes(90)).toBe(5_400_000);
    expect(minutesOfMs(3_600_000)).toBe(60);
    expect(minutesOfMs(null)).toBeNull();
  });
});

describe("signal selection", () => {
  it("suits MVD with 2 signals or a group, SVD with exactly one signal", () => {
    const v = (type: "mvd" | "svd", s: string[], g: string[] = []) =>
      isSignalSelectionValid({ monitor_type: type, signal_uuids: s, signal_group_uuids: g });
    expect(v("mvd", [S1])).toBe(false);
    expect(v("mvd", [S1, S2])).toBe(true);
    expect(v("mvd", [], [G1])).toBe(true);
    expect(v("svd", [S1])).toBe(true);
    expect(v("svd", [S1, S2])).toBe(false);
    expect(v("svd", [S1], [G1])).toBe(false);
  });

  it("expands selected groups into their signals once the groups are known", () => {
    const groups = [{ signalGroupUuid: G1, signalGroupName: "Torque", signalUuids: [S2, S3] }];
    expect(selectedSignalIds([S1, S2], [], undefined)).toEqual([S1, S2]);
    expect(selectedSignalIds([S1], [G1], undefined)).toBeNull();
    expect(selectedSignalIds([S1, S2], [G1], groups)).toEqual([S1, S2, S3]);
  });
});

describe("resultAssociationOf (requirements.md monitor-forms §2 Result select)", () => {
  it("is configured when any signal has pass or fail values; lists signals without any classification", () => {
    const map = {
      [S1]: { associatedResultClassifications: { ...empty, pass: [entry("OK")] } },
      [S2]: { associatedResultClassifications: empty },
      [S3]: { associatedResultClassifications: { ...empty, other: [entry("RETEST")] } },
    };
    expect(resultAssociationOf([S1, S2, S3], map)).toEqual({ isConfigured: true, lacking: [S2] });
    // Only 'other' values: nothing to filter pass / fail on, but the signal is associated.
    expect(resultAssociationOf([S3], map)).toEqual({ isConfigured: false, lacking: [] });
    expect(resultAssociationOf([S1], undefined)).toEqual({ isConfigured: false, lacking: [S1] });
    expect(resultAssociationOf([], map)).toEqual({ isConfigured: false, lacking: [] });
  });

  it("spells the warning as the spec does", () => {
    expect(resultAssociationWarningText()).toBe(
      "One or many signal(s) lack result association. This may impact the query. Click 'Configure now' to create associations",
    );
  });
});

describe("missingPartAttributes (requirements.md monitor-forms §5 Part attributes)", () => {
  it("finds chosen attributes that the line does not have; rows still empty are not missing", () => {
    const line = [
      {
        attributeUuid: A1,
        attributeName: "Shift",
        stationName: "OP10",
        isSignalActive: true,
        attributeValues: [],
      },
    ];
    const gone = { attributeUuid: S3, selectedAttributeValues: ["x"] };
    expect(
      missingPartAttributes(
        [
          { attributeUuid: A1, selectedAttributeValues: ["A"] },
          gone,
          { attributeUuid: "", selectedAttributeValues: [] },
        ],
        line,
      ),
    ).toEqual([gone]);
  });
});

describe("previewRequestOf", () => {
  it("sends the filter, the threshold and the tab's period", () => {
    const v = form({ pass_fail_filter: ["fail"], part_numbers: ["M-100"], evaluation_ratio: 0.25 });
    const r = previewRequestOf(v, { now: NOW });
    expect(r.blocked).toBeNull();
    expect(r.body).toMatchObject({
      type: "mvd",
      line_id: LINE,
      alert_threshold: "medium",
      period: previewPeriodOf(v.query),
      filter: {
        signal_uuids: [S1, S2],
        sample_size: 150,
        pass_fail_filter: ["fail"],
        part_numbers: ["M-100"],
        evaluation_ratio: 0.25,
      },
    });
  });

  it("leaves out part attribute rows still being filled in", () => {
    const v = form({
      part_attributes: [
        { attributeUuid: A1, selectedAttributeValues: ["A"] },
        { attributeUuid: A1, selectedAttributeValues: [] },
        { attributeUuid: "", selectedAttributeValues: [] },
      ],
    });
    expect(previewRequestOf(v, { now: NOW }).body?.filter.part_attributes).toEqual([
      { attribute_uuid: A1, selected_attribute_values: ["A"] },
    ]);
  });

  it("sizes the window by End records when the period counts from its start", () => {
    const v = form({
      query: {
        ...form().query,
        start_mode: "Time",
        start_time: NOW - 3_600_000,
        end_mode: "Records",
        start_records: null,
        end_records: 400,
        end_time: NOW - 3_599_000,
      },
    });
    const body = previewRequestOf(v, { now: NOW }).body;
    expect(body?.filter.sample_size).toBe(400);
    expect(body?.period).toEqual({
      from: new Date(NOW - 3_600_000).toISOString(),
      to: null,
      records: 400,
      anchor: "start",
    });
  });

  it("is blocked until the signals suit the type, and while the period is invalid", () => {
    expect(previewRequestOf(form({ signal_uuids: [S1] }), { now: NOW })).toEqual({
      body: null,
      blocked: "signals",
    });
    expect(previewRequestOf(form({ line_uuid: "" }), { now: NOW }).blocked).toBe("signals");
    const invalidEnd = form({ query: { ...form().query, end_time: Number.NaN } });
    expect(previewRequestOf(invalidEnd, { now: NOW })).toEqual({ body: null, blocked: "period" });
  });
});
