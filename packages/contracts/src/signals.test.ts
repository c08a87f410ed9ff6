import { describe, expect, it } from "vitest";
import {
  dissociationsOf,
  SIGNAL_MANAGEMENT_MESSAGES,
  ZResultClassificationsPatchBody,
  ZSignalFriendlyName,
} from "./signals.js";

const sig = (
  id: string,
  entityType: string,
  assoc: Partial<Record<"upperLimit" | "lowerLimit" | "result", string>> = {},
) =>
  ({ id, entityType, upperLimit: null, lowerLimit: null, result: null, ...assoc }) as Parameters<
    typeof dissociationsOf
  >[0][number];

describe("dissociationsOf (requirements.md settings §4 Entity type change)", () => {
  const line = [
    sig("m1", "MEASUREMENT", { upperLimit: "u", lowerLimit: "l", result: "r" }),
    sig("m2", "MEASUREMENT", { result: "r" }),
    sig("u", "UPPER_LIMIT"),
    sig("l", "LOWER_LIMIT"),
    sig("r", "RESULT"),
  ];

  it("a measurement that stops being one loses all its associations", () => {
    expect(dissociationsOf(line, new Map([["m1", "UNKNOWN"]]))).toEqual([
      { measurementId: "m1", role: "upperLimit", signalId: "u" },
      { measurementId: "m1", role: "lowerLimit", signalId: "l" },
      { measurementId: "m1", role: "result", signalId: "r" },
    ]);
  });

  it("a result that changes type leaves every measurement pointing at it", () => {
    expect(dissociationsOf(line, new Map([["r", "PART_ATTRIBUTE"]]))).toEqual([
      { measurementId: "m1", role: "result", signalId: "r" },
      { measurementId: "m2", role: "result", signalId: "r" },
    ]);
  });

  it("an upper limit turned lower limit is no longer the upper limit", () => {
    expect(dissociationsOf(line, new Map([["u", "LOWER_LIMIT"]]))).toEqual([
      { measurementId: "m1", role: "upperLimit", signalId: "u" },
    ]);
  });

  it("a change that keeps the type breaks nothing", () => {
    expect(
      dissociationsOf(
        line,
        new Map([
          ["u", "UPPER_LIMIT"],
          ["m2", "MEASUREMENT"],
        ]),
      ),
    ).toEqual([]);
  });
});

describe("signal management shapes", () => {
  it("friendly names: no leading spaces; empty means none", () => {
    expect(ZSignalFriendlyName.safeParse(" a").error?.issues[0]?.message).toBe(
      SIGNAL_MANAGEMENT_MESSAGES.noLeadingSpaces,
    );
    expect(ZSignalFriendlyName.parse("")).toBeNull();
    expect(ZSignalFriendlyName.parse("Torque ")).toBe("Torque");
  });

  it("classifications: values required and unique across pass, fail and other", () => {
    const id = "00000000-0000-4000-8000-000000000001";
    const body = (pass: string[], fail: string[]) => ({
      [id]: {
        resultClassifications: {
          pass: pass.map((value) => ({ value, failureMode: null })),
          fail: fail.map((value) => ({ value, failureMode: "" })),
          other: [],
        },
      },
    });
    expect(
      ZResultClassificationsPatchBody.parse(body(["OK"], ["NOK"]))[id]?.resultClassifications.fail[0],
    ).toEqual({
      value: "NOK",
      failureMode: null,
    });
    const messages = (b: unknown) =>
      ZResultClassificationsPatchBody.safeParse(b).error?.issues.map((i) => i.message) ?? [];
    expect(messages(body([""], []))).toContain(SIGNAL_MANAGEMENT_MESSAGES.classificationEmpty);
    expect(messages(body(["OK"], ["OK"]))).toContain(SIGNAL_MANAGEMENT_MESSAGES.classificationExists);
  });
});
