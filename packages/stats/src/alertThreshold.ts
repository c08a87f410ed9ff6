/**
 * Sensitivity levels and what each means for every monitor type (docs/monitoring.md "Sensitivity").
 * Each level is a false-breach rate α for one evaluation of an in-control process.
 */
export const ALERT_THRESHOLDS = ["low", "medium", "high"] as const;
export type AlertThreshold = (typeof ALERT_THRESHOLDS)[number];

/** The product default (docs/architecture.md, "default alert threshold"). */
export const DEFAULT_ALERT_THRESHOLD: AlertThreshold = "medium";

export interface AlertThresholdLevel {
  /** False-breach rate of one in-control evaluation; the MVD binomial test level. */
  readonly alpha: number;
  /** SVD: the normal null law's quantile k; the threshold is max(q_α(F̂) · f_ρ · t/z / √n_eff, 0.1) (evaluateSvdCalibrated). */
  readonly svdK: number;
  /** CAP: the Ppk target its capability part tests the upper confidence bound of Ppk against (evaluateCapCalibrated). */
  readonly cpkTarget: number;
}

export const ALERT_THRESHOLD_LEVELS: Readonly<Record<AlertThreshold, AlertThresholdLevel>> = {
  low: { alpha: 0.05, svdK: 2.1, cpkTarget: 1.67 },
  medium: { alpha: 0.01, svdK: 2.7, cpkTarget: 1.33 },
  high: { alpha: 0.001, svdK: 3.4, cpkTarget: 1.0 },
};

export function isAlertThreshold(value: unknown): value is AlertThreshold {
  return typeof value === "string" && (ALERT_THRESHOLDS as readonly string[]).includes(value);
}
