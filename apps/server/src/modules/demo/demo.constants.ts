/**
 * What the demo plant is called and how to sign in to it. End-to-end tests import these, so a
 * renamed line or a changed password breaks at compile time, not in a browser.
 */

/** The default PRNG seed: the same seed gives the same part records on every machine. */
export const DEMO_SEED = 20_261_122;
/** Days of part records, ending at the time of seeding. */
export const DEMO_DAYS = 14;
/** One part a minute at every station of a line with records. */
export const DEMO_PART_INTERVAL_MS = 60_000;

export const DEMO_CUSTOMER_NAME = "Demo Manufacturing";
export const PROVIDER_CUSTOMER_NAME = "Linewatch";

export const DEMO_PLANTS = {
  detroit: { name: "Detroit Assembly", timeZone: "America/Detroit" },
  stuttgart: { name: "Stuttgart Components", timeZone: "Europe/Berlin" },
} as const;

export const DEMO_LINES = {
  /** Detroit, 14 days of records, step change on OP20 Torque. */
  axle: "Axle Assembly",
  /** Detroit, new line (is_new_line), stations and signals but no records yet. */
  brake: "Brake Module",
  /** Stuttgart, 14 days of records, slow drift on OP10 Bore Diameter. */
  valve: "Valve Machining",
} as const;

export const DEMO_STATIONS = {
  axle: { press: "OP10 Bearing Press", nutRunner: "OP20 Nut Runner", leakTest: "OP30 Leak Test" },
  brake: { caliper: "OP10 Caliper Assembly" },
  valve: { boring: "OP10 Fine Boring", milling: "OP20 Face Milling", cmm: "OP30 CMM" },
} as const;

export type DemoSignIn = {
  email: string;
  password: string;
  isAdministrator: boolean;
  /** Provider staff: the provider customer at the provider's own location. */
  isProviderStaff: boolean;
};

export const DEMO_USERS = {
  admin: {
    email: "admin@demo.local",
    password: "demo-admin",
    isAdministrator: true,
    isProviderStaff: false,
  },
  user: { email: "user@demo.local", password: "demo-user", isAdministrator: false, isProviderStaff: false },
  support: {
    email: "support@linewatch.local",
    password: "demo-support",
    isAdministrator: true,
    isProviderStaff: true,
  },
} as const satisfies Record<string, DemoSignIn>;

/**
 * The faults built into the records, so monitors have something to find. A step change: the
 * torque transducer reads `delta` Nm high from `hoursBeforeEnd` on, while the angle (the real
 * joint) does not move, so the torque↔angle correlation breaks too.
 */
export const DEMO_STEP_CHANGE = {
  line: DEMO_LINES.axle,
  station: DEMO_STATIONS.axle.nutRunner,
  signal: "Torque",
  hoursBeforeEnd: 72,
  delta: 1.2,
} as const;

/** A slow drift: boring-tool wear opens the bore linearly by `total` mm over the last `hours`. */
export const DEMO_DRIFT = {
  line: DEMO_LINES.valve,
  station: DEMO_STATIONS.valve.boring,
  signal: "Bore Diameter",
  hoursBeforeEnd: 168,
  total: 0.012,
} as const;
