import { CHALLENGE_RANGE_TEXTS as T } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { draftError, draftOf, newDraft, rangesOf } from "./challenge-ranges.form";

const TZ = "America/Detroit";

describe("challenge range drafts", () => {
  it("edits a time range on the plant's wall clock and stores instants", () => {
    const d = draftOf({ mode: "TIME", from: "2026-11-20T13:00:00.000Z", to: "2026-11-20T14:00:00.000Z" }, TZ);
    expect(d).toMatchObject({ from: "2026-11-20T08:00", to: "2026-11-20T09:00" });
    expect(rangesOf([d], TZ)).toEqual([
      { mode: "TIME", from: "2026-11-20T13:00:00.000Z", to: "2026-11-20T14:00:00.000Z" },
    ]);
  });
  it("needs a forward time range and two part ids", () => {
    const d = newDraft(Date.parse("2026-11-20T14:00:00Z"), TZ);
    expect(draftError(d, TZ)).toBeNull();
    expect(draftError({ ...d, from: d.to, to: d.from }, TZ)).toBe(T.timeOrder);
    const part = { ...d, mode: "PART" as const, fromPart: " P-1 ", toPart: "" };
    expect(draftError(part, TZ)).toBe(T.partRequired);
    expect(rangesOf([{ ...part, toPart: "P-9" }], TZ)).toEqual([
      { mode: "PART", from_part_id: "P-1", to_part_id: "P-9" },
    ]);
  });
});
