/**
 * Minimum window sizes below which an evaluation is NO_DATA (docs/monitoring.md "The window"):
 * training < 2 × signals + 2 for MVD, training < 10 for SVD, evaluation < 25 for every monitor.
 */
export const MIN_EVALUATION_RECORDS = 25;
export const MIN_SVD_TRAINING_RECORDS = 10;

/** MVD training minimum for `signalCount` selected signals: 2 × p + 2. */
export function minMvdTrainingRecords(signalCount: number): number {
  return 2 * signalCount + 2;
}
