import type { TLine, TMe, TPlant } from "@linewatch/contracts";

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

// Evaluation details as the worker writes them, and as older evaluations stored them.
export {
  capDetailsFixture,
  mvdDetailsFixture,
  storedUncorrectedDetails,
  svdDetailsFixture,
} from "@linewatch/contracts/fixtures";
