import { CHALLENGE_RANGE_TEXTS as T, type TChallengeRange } from "@linewatch/contracts";
import { fromPlantInput, toPlantInput } from "../../../shared/plant-time";

/** A challenge range as the dialog edits it: times as the plant's wall clock, part ids as typed. */
export type TRangeDraft = {
  mode: "TIME" | "PART";
  from: string;
  to: string;
  fromPart: string;
  toPart: string;
};

export function draftOf(r: TChallengeRange, timeZone: string): TRangeDraft {
  return r.mode === "TIME"
    ? {
        mode: "TIME",
        from: toPlantInput(new Date(r.from), timeZone),
        to: toPlantInput(new Date(r.to), timeZone),
        fromPart: "",
        toPart: "",
      }
    : { mode: "PART", from: "", to: "", fromPart: r.from_part_id, toPart: r.to_part_id };
}

/** A new range: the last hour (time based). */
export const newDraft = (now: number, timeZone: string): TRangeDraft => ({
  mode: "TIME",
  from: toPlantInput(now - 3_600_000, timeZone),
  to: toPlantInput(now, timeZone),
  fromPart: "",
  toPart: "",
});

/** The message under a draft's fields, or null when it can be saved. */
export function draftError(d: TRangeDraft, timeZone: string): string | null {
  if (d.mode === "PART") return d.fromPart.trim() && d.toPart.trim() ? null : T.partRequired;
  const from = fromPlantInput(d.from, timeZone);
  const to = fromPlantInput(d.to, timeZone);
  return from !== null && to !== null && from < to ? null : T.timeOrder;
}

/** The ranges to store; call only when no draft has an error. */
export function rangesOf(drafts: readonly TRangeDraft[], timeZone: string): TChallengeRange[] {
  return drafts.map((d) =>
    d.mode === "PART"
      ? { mode: "PART", from_part_id: d.fromPart.trim(), to_part_id: d.toPart.trim() }
      : {
          mode: "TIME",
          from: fromPlantInput(d.from, timeZone) as string,
          to: fromPlantInput(d.to, timeZone) as string,
        },
  );
}
