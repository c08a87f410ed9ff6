import type { CHART_SERIES_TEXTS } from "./evaluation-summary.js";
import type { Translation } from "./i18n.js";

export const CHART_SERIES_TEXTS_DE = {
  mvd: { score: "p-Wert", threshold: "α" },
  svd: { score: "Abstand (σ)", threshold: "Schwellenwert (σ)" },
  cap: { score: "Ppk (obere Vertrauensgrenze)", threshold: "Cpk-Zielwert" },
} as const satisfies Translation<typeof CHART_SERIES_TEXTS>;
