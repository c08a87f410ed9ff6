import { z } from "zod";
import { ZId, zString } from "./common.js";

/** A line (spec settings §3 "Line"). */
export const ZLine = z.object({
  id: ZId,
  plantId: ZId,
  name: zString(),
  displayName: zString().nullable(),
  friendlyName: zString().nullable(),
  active: z.boolean(),
  lastIngestedTime: z.iso.datetime({ offset: true }).nullable(),
  isNewLine: z.boolean(),
  ingestionThresholdHours: z.number().int().nullable(),
  alertViewingWindowDays: z.number().int(),
  activeMonitorsCount: z.number().int(),
  feederLineIds: z.array(ZId),
  excludedPartIds: z.array(zString()),
  excludedModelNumbers: z.array(zString()),
});
export type TLine = z.infer<typeof ZLine>;
export const ZLineList = z.array(ZLine);
export const ZLineParams = z.strictObject({ lineId: ZId });

/**
 * The line a plant opens on when none is chosen (a new session, another plant picked): its first
 * active line by name, ignoring case, whatever order the lines came in; its first line when none
 * is active. A line a CSV upload or MQTT message just created is no different from any other.
 */
export function defaultLine<L extends Pick<TLine, "name" | "active">>(lines: readonly L[]): L | null {
  const byName = [...lines].sort(
    (a, b) =>
      a.name.localeCompare(b.name, "en", { sensitivity: "base" }) ||
      (a.name < b.name ? -1 : +(a.name > b.name)),
  );
  return byName.find((l) => l.active) ?? byName[0] ?? null;
}

/** The name a line is shown by: its friendly name when it has one. */
export const lineLabel = (line: Pick<TLine, "name" | "friendlyName">): string =>
  line.friendlyName || line.name;

/**
 * "No Ingestion" shows when the last ingested time plus the threshold hours is in the past
 * (spec settings §2.9). No threshold or no data yet: nothing to compare, no chip.
 */
export function isNoIngestion(
  line: Pick<TLine, "lastIngestedTime" | "ingestionThresholdHours">,
  now: Date = new Date(),
): boolean {
  if (line.ingestionThresholdHours == null || line.lastIngestedTime == null) return false;
  return new Date(line.lastIngestedTime).getTime() + line.ingestionThresholdHours * 3_600_000 < now.getTime();
}

export const LINE_MESSAGES = {
  notFound: "Unable to find the line",
  noIngestion: "No Ingestion",
} as const;
