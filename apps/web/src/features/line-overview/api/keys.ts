import type { TPreset } from "../../capability/capability.view";

export const lineOverviewKeys = {
  monitors: (lineId: string) => ["lines", lineId, "monitors"] as const,
  /** The scores over time of the period ending now, `preset` long. */
  evaluationSeries: (lineId: string, preset: TPreset) =>
    ["lines", lineId, "evaluation-series", preset] as const,
};
