import type { TCapDetails, TLine, TMe, TMvdDetails, TPlant, TSvdDetails } from "@linewatch/contracts";

// Shapes the component tests share (a customer, its plant, lines and signed-in user), and the
// layout jsdom lacks. Each test overrides what it is about.

/** jsdom has no ResizeObserver: grids and virtual lists need one to render their rows. */
export function installResizeObserver() {
  class NoopResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
}

export const testCustomer = { id: "00000000-0000-4000-8000-000000000001", name: "Acme" };

export const testPlant = (over: Partial<TPlant> = {}): TPlant => ({
  id: "00000000-0000-4000-8000-000000000002",
  name: "Detroit",
  timeZone: "America/Detroit",
  ...over,
});

export const testLine = (over: Partial<TLine> & Pick<TLine, "id" | "plantId">): TLine => ({
  name: "Axle",
  displayName: null,
  friendlyName: null,
  active: true,
  lastIngestedTime: null,
  isNewLine: false,
  ingestionThresholdHours: null,
  alertViewingWindowDays: 7,
  activeMonitorsCount: 0,
  feederLineIds: [],
  excludedPartIds: [],
  excludedModelNumbers: [],
  ...over,
});

export const testMe = (over: Partial<TMe> = {}): TMe => ({
  id: "00000000-0000-4000-8000-000000000003",
  email: "user@acme.test",
  isAdministrator: false,
  isProviderStaff: false,
  locationName: null,
  locationPlantId: null,
  homeCustomer: testCustomer,
  customer: testCustomer,
  selectedPlantId: null,
  selectedLineId: null,
  ...over,
});

/** Evaluation details as the worker writes them (contracts ZEvaluationDetails), with overrides. */
export const svdDetailsFixture = (over: Partial<TSvdDetails> = {}): TSvdDetails => ({
  kind: "svd",
  signal: { id: null, name: "Bore Diameter" },
  w1: 0.5,
  scale: 0.6,
  scaleSource: "sd",
  k: 2.7,
  nEff: 18.75,
  m: 75,
  n: 25,
  trainingMean: 46,
  trainingSd: 0.6,
  evaluationMean: 45.5,
  evaluationSd: 0.5,
  leftOut: { training: 0, evaluation: 0 },
  ...over,
});

export const mvdDetailsFixture = (over: Partial<TMvdDetails> = {}): TMvdDetails => ({
  kind: "mvd",
  ucl: 30,
  k: 1,
  p_value: 0.5,
  alpha: 0.01,
  m: 100,
  n: 25,
  p: 2,
  shrinkage: 0.05,
  signals: [],
  droppedSignals: [],
  worstRows: [],
  leftOut: { training: 0, evaluation: 0 },
  ...over,
});

export const capDetailsFixture = (over: Partial<TCapDetails> = {}): TCapDetails => ({
  kind: "cap",
  signal: { id: null, name: "Press Force" },
  n: 25,
  cp: 1,
  cpk: 0.9,
  pp: 0.9,
  ppk: 0.8,
  mean: 24,
  sigmaWithin: 1,
  sigmaOverall: 1.1,
  cpkTarget: 1.33,
  ppkBelowTarget: true,
  violations: 0,
  violationParts: [],
  limits: { lsl: 21, usl: 27, lcl: [], ucl: [], formulas: {} },
  limitErrors: [],
  leftOut: 0,
  ...over,
});
