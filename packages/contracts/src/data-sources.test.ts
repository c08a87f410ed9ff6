import { describe, expect, it } from "vitest";
import { ZCreateDataSourceBody } from "./data-source-forms.js";
import { isMqttTopicFilter, topicFiltersOverlap, topicMatches } from "./data-sources.js";

describe("isMqttTopicFilter", () => {
  it.each(["plant/line1/#", "plant/+/records", "#", "+", "a/b/c", "factory/line 1", "/leading/slash"])(
    "accepts %s",
    (t) => expect(isMqttTopicFilter(t)).toBe(true),
  );
  it.each(["", "a/#/b", "a#", "a+/b", "a/b+", "a/\u0000", "x".repeat(256)])("refuses %j", (t) =>
    expect(isMqttTopicFilter(t)).toBe(false),
  );
  it("trims the body and refuses unknown fields", () => {
    expect(ZCreateDataSourceBody.parse({ name: " Line 1 ", topic: " a/+/b " })).toEqual({
      name: "Line 1",
      topic: "a/+/b",
    });
    expect(ZCreateDataSourceBody.safeParse({ name: "x", topic: "a", extra: 1 }).success).toBe(false);
  });
});

describe("topicMatches", () => {
  it.each([
    ["plant/#", "plant/line1/op20", true],
    ["plant/#", "plant", true],
    ["plant/+/op20", "plant/line1/op20", true],
    ["plant/+/op20", "plant/line1/op30", false],
    ["plant/+", "plant/line1/op20", false],
    ["a/b", "a/b", true],
    ["a/b", "a/b/c", false],
    ["#", "$SYS/broker", false],
    ["$share/linewatch/plant/#", "plant/x", true],
  ])("%s ~ %s → %s", (f, t, want) => expect(topicMatches(f, t)).toBe(want));
});

describe("topicFiltersOverlap", () => {
  it.each([
    ["#", "plant/a", true],
    ["plant/+/op", "plant/line/+", true],
    ["plant/a", "plant/a/#", true],
    ["plant/a", "plant/b", false],
    ["plant/+", "plant/a/b", false],
    ["a/b/c", "a/b", false],
    ["x/#", "y/#", false],
  ])("%s ∩ %s → %s", (a, b, want) => {
    expect(topicFiltersOverlap(a, b)).toBe(want);
    expect(topicFiltersOverlap(b, a)).toBe(want);
  });
});
