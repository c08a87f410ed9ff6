import type { TBacktest, TLine, TMe, TMonitor, TPlant } from "@linewatch/contracts";

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

/**
 * jsdom has no matchMedia: installs one whose queries match as `matches` says (MUI's
 * useMediaQuery, a picker's "(pointer: fine)"). Returns the one it replaced, to put back.
 */
export function installMatchMedia(matches: (query: string) => boolean): typeof window.matchMedia {
  const previous = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
  return previous;
}

export const testCustomer = { id: "00000000-0000-4000-8000-000000000001", name: "Acme" };

export const testPlant = (over: Partial<TPlant> = {}): TPlant => ({
  id: "00000000-0000-4000-8000-000000000002",
  name: "Detroit",
  timeZone: "America/Detroit",
  active: true,
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
  language: null,
  ...over,
});

/**
 * A monitor as the API answers it (ZMonitor): by default an active MVD every 5 minutes on no
 * signal, with every filter list empty. `filter` names its line and what else the test is about.
 */
export const testMonitor = (
  over: Partial<Omit<TMonitor, "monitor_filter">> & Pick<TMonitor, "monitor_uuid" | "monitor_name">,
  filter: Partial<TMonitor["monitor_filter"]> & Pick<TMonitor["monitor_filter"], "plant_uuid" | "line_uuid">,
): TMonitor => ({
  monitor_type: "mvd",
  active: true,
  frequency: 5,
  notes: "",
  use_excluded_part_ids: false,
  use_excluded_model_numbers: false,
  ...over,
  monitor_filter: {
    cust_uuid: testCustomer.id,
    signal_uuids: [],
    signal_group_uuids: [],
    part_groups: [],
    part_numbers: [],
    part_attributes: [],
    pass_fail_filter: [],
    evaluation_ratio: 0.2,
    sample_size: 150,
    alert_threshold: "medium",
    ...filter,
  },
});

/**
 * A backtest ending at `now` over `days` days, of 4 five-minute slots: 2 breaches, and `alerts`
 * would-be alerts opened at the first breach (summary: `alerts` opened, 2 breaches of 4).
 */
export function testBacktest(p: { now: number; alerts?: number; days?: number }): TBacktest {
  const { now, alerts = 1, days = 7 } = p;
  const slot = (i: number) => new Date(now - (3 - i) * 5 * 60_000).toISOString();
  const states = ["OK", "BREACH", "BREACH", "OK"] as const;
  return {
    from: new Date(now - days * 24 * 3_600_000).toISOString(),
    to: new Date(now).toISOString(),
    frequency: 5,
    records: 2_000,
    slots: states.map((state, i) => ({
      slot: slot(i),
      state,
      score: state === "BREACH" ? 3 : 1,
      threshold: 2,
      reason: null,
      alert: state === "BREACH" ? (i === 1 ? "opened" : "fired") : "none",
    })),
    alerts: Array.from({ length: alerts }, () => ({
      opened_at: slot(1),
      resolved_at: null,
      last_seen_at: slot(2),
      rule: "breach" as const,
      count: 2,
      score: 3,
      threshold: 2,
    })),
    summary: { evaluations: 4, breaches: 2, alerts_opened: alerts },
  };
}

// Evaluation details as the worker writes them, and as older evaluations stored them.
export {
  capDetailsFixture,
  mvdDetailsFixture,
  storedUncorrectedDetails,
  svdDetailsFixture,
} from "@linewatch/contracts/fixtures";
