import { describe, expect, it } from "vitest";
import { topicMatches } from "./data-sources.js";
import { topicFilterWithin } from "./mqtt-credentials.js";

describe("topicFilterWithin", () => {
  it.each([
    ["plant/#", "plant/#"],
    ["plant/line1/#", "plant/#"],
    ["plant/+/op20", "plant/#"],
    ["plant", "plant/#"],
    ["plant/line1/op20", "plant/+/op20"],
    ["plant/+/op20", "plant/+/op20"],
    ["a/b", "a/b"],
    ["a/b/c", "#"],
  ])("%s is within %s", (filter, scope) => expect(topicFilterWithin(filter, scope)).toBe(true));

  it.each([
    ["#", "plant/#"],
    ["+/#", "plant/#"],
    ["+/line1/op20", "plant/+/op20"],
    ["plant/#", "plant/+/op20"],
    ["plant/+/#", "plant/+/op20"],
    ["plant/+/op20", "plant/line1/op20"],
    ["plant/line1", "plant/line1/op20"],
    ["plant/line1/op20/x", "plant/+/op20"],
    ["other/#", "plant/#"],
    ["$SYS/#", "#"],
    ["$share/g/plant/#", "+/#"],
  ])("%s is not within %s", (filter, scope) => expect(topicFilterWithin(filter, scope)).toBe(false));

  it("agrees with topicMatches: a topic matched by a filter within a scope is matched by the scope", () => {
    const topics = ["plant", "plant/line1", "plant/line1/op20", "plant/line2/op20", "other/line1/op20"];
    const filters = ["plant/#", "plant/+/op20", "plant/line1/op20", "plant", "#", "+/+/op20"];
    for (const f of filters)
      for (const s of filters)
        if (topicFilterWithin(f, s))
          for (const t of topics)
            if (topicMatches(f, t)) expect(topicMatches(s, t), `${f} ⊆ ${s}: ${t}`).toBe(true);
  });
});
