// Public API of @linewatch/stats: pure functions on numbers and Float64Array, no I/O.
// The definitions are in docs/monitoring.md; reference values in ../reference/.
export {
  ALERT_THRESHOLD_LEVELS,
  ALERT_THRESHOLDS,
  type AlertThreshold,
  type AlertThresholdLevel,
  DEFAULT_ALERT_THRESHOLD,
  isAlertThreshold,
} from "./alertThreshold.js";
export { binomialUpperTail } from "./binomialUpperTail.js";
export {
  type Capability,
  type CapabilityIndices,
  capability,
  capabilityIndices,
  D2_MOVING_RANGE,
  type SpecLimits,
} from "./capability.js";
export {
  bissellStandardError,
  type CapabilityIntervals,
  type CapabilityUncertainty,
  capabilityIntervals,
  capabilitySideStandardError,
  capabilityStandardError,
  type Interval,
  minitabCapabilityIntervals,
} from "./capabilityIntervals.js";
export type { CapLimits, LimitValues } from "./capLimits.js";
export { choleskyDecompose, choleskySolve, choleskySolveRows } from "./cholesky.js";
export {
  ALL_RUN_RULES,
  type ControlTest,
  controlRuleHits,
  ONE_SIDED_LIMIT_TAIL,
  RULE2_POINT_TAIL,
  RULE3_POINT_TAIL,
  type RunRules,
  runTail,
} from "./controlRules.js";
export {
  type ControlSignalSet,
  controlRulesArl,
  controlSignalChance,
  controlSignalRate,
  WESTERN_ELECTRIC_RUN_LENGTH,
  westernElectricSet,
} from "./controlSignalChain.js";
export {
  type BurgFit,
  bicOrder,
  burgFit,
  type Dependence,
  type DependenceOptions,
  estimateDependence,
  estimatePooledDependence,
  fittedAutocorrelations,
  MAX_VIF,
  windowVif,
} from "./dependence.js";
export {
  mean,
  median,
  medianAbsoluteDeviation,
  sampleKurtosis,
  sampleShape,
  sampleStandardDeviation,
} from "./descriptive.js";
export {
  fUpperTail,
  normalUpperQuantile,
  normalUpperTail,
  studentTUpperTail,
  vifWidening,
} from "./distributions.js";
export {
  CAP_GAP_SIGMAS,
  type CapCalibratedEvaluation,
  type CapCalibratedOptions,
  type ControlRule,
  type ControlRuleHit,
  capabilityPValue,
  evaluateCapCalibrated,
  sidesCorrelation,
  sidesGap,
} from "./evaluateCapCalibrated.js";
export {
  crossValidatedT2OfColumns,
  crossValidatedT2WithEvaluation,
  evaluateMvdCalibrated,
  MVD_CROSS_VALIDATION_FOLDS,
  type MvdCalibratedEvaluation,
  type MvdOptions,
  type MvdWorstRow,
  type SignalContribution,
} from "./evaluateMvdCalibrated.js";
export { evaluateSvdCalibrated, type SvdCalibratedEvaluation } from "./evaluateSvdCalibrated.js";
export type { EvaluatedState, NoDataCode, NoDataEvaluation } from "./evaluation.js";
export { type Histogram, histogram, MAX_HISTOGRAM_BINS } from "./histogram.js";
export { type HotellingT2Result, hotellingT2, hotellingUcl } from "./hotellingT2.js";
export { ledoitWolfShrinkage, shrinkCovariance } from "./ledoitWolfShrinkage.js";
export {
  dependenceDegreesAt,
  evaluationsPerFalseAlarm,
  type LevelSupport,
  levelSupport,
  MATERIAL_VIF,
  type MeasuredLevelSupport,
  MIN_DEPENDENCE_DEGREES,
  measureLevelSupport,
} from "./levelSupport.js";
export {
  type EvaluateLimitFormulaResult,
  evaluateLimitFormula,
  type FormulaError,
  type FormulaNode,
  MAX_FORMULA_DEPTH,
  MAX_FORMULA_LENGTH,
  type ParseLimitFormulaResult,
  parseLimitFormula,
} from "./limitFormula.js";
export { type MannWhitneyResult, mannWhitneyGreater } from "./mannWhitney.js";
export { createMatrix, type Matrix, matrixFromRows, matrixGet, matrixRow, matrixToRows } from "./matrix.js";
export { D4_MOVING_RANGE, type MovingRangeChart, movingRangeChart } from "./movingRangeChart.js";
export {
  arSpectrumRatio,
  fitPeriodicComponent,
  MIN_PERIODIC_RECORDS,
  PERIODIC_ALPHA,
  type PeriodicComponent,
  type PeriodicFit,
  periodicBand,
  periodicPValue,
} from "./periodicComponent.js";
export { chiSquareQuantile, fQuantile } from "./quantiles.js";
export { sampleCovariance, sampleMean } from "./sampleCovariance.js";
export { pearson3UpperTail, type SavageResult, savageGreater } from "./savageScores.js";
export { seededUniform } from "./seededUniform.js";
export { StatsError, type StatsErrorCode } from "./statsError.js";
export {
  AUTOCORRELATION_RATE_FACTOR,
  AUTOCORRELATION_SIGNIFICANCE_Z,
  type ControlLimitPair,
  type ControlLimitsBasis,
  expectedExceedanceRate,
  isAutocorrelationMaterial,
  lag1Autocorrelation,
  NOMINAL_FALSE_ALARM_RATE,
  type SuggestedControlLimits,
  suggestControlLimits,
} from "./suggestControlLimits.js";
export {
  AR1_BRIDGE_SLOPES,
  ar1BridgeLaw,
  bridgeLawCv,
  bridgeMeanRatio,
  dependentBridgeLaw,
  dispersionRatio,
  NORMAL_BRIDGE_CV,
  NORMAL_BRIDGE_MEAN,
  normalReferenceCv,
  normalReferenceRatio,
  svdDependenceFactor,
  svdNullQuantile,
} from "./svdNullQuantile.js";
export {
  bivariateMaxUpperTail,
  bivariateNormalCdf,
  gappedCriticalValue,
  owensT,
  twoSidedCriticalValue,
} from "./twoSidedCritical.js";
export { type ValueGrid, valueGrid } from "./valueGrid.js";
export {
  AR1_SIGNIFICANCE_Z,
  ar1Coefficient,
  autocorrelations,
  MAX_AR1_COEFFICIENT,
  pooledAr1Coefficient,
  type VifMethod,
  varianceInflationFactor,
  vifDegreesOfFreedom,
  vifEstimate,
  vifOfCoefficient,
} from "./varianceInflation.js";
export { type WassersteinOptions, wassersteinDistance } from "./wassersteinDistance.js";
export { MIN_EVALUATION_RECORDS, MIN_SVD_TRAINING_RECORDS, minMvdTrainingRecords } from "./windowMinimums.js";
