import { LOCATION_PROVIDER, SESSION_COOKIE } from "@linewatch/contracts";
import type { Db } from "../src/db/client.js";
import {
  customers,
  evaluations,
  ingestors,
  lines,
  modelNumbers,
  monitors,
  partAttributeValues,
  plants,
  resultClassifications,
  signalGroupMembers,
  signalGroups,
  signals,
  stations,
  userRoles,
  users,
} from "../src/db/schema/index.js";
import type { App } from "../src/http/app.js";
import { hashPassword } from "../src/lib/password.js";

let n = 0;
const seq = () => ++n;
export const PASSWORD = "correct horse battery";
let passwordHash: Promise<string> | undefined;

export async function createCustomer(db: Db, values: Partial<typeof customers.$inferInsert> = {}) {
  const [row] = await db
    .insert(customers)
    .values({ name: `Customer ${seq()}`, ...values })
    .returning();
  if (!row) throw new Error("no customer");
  return row;
}

export async function createPlant(
  db: Db,
  customerId: string,
  values: Partial<typeof plants.$inferInsert> = {},
) {
  const [row] = await db
    .insert(plants)
    .values({ customerId, name: `Plant ${seq()}`, timeZone: "Europe/Berlin", ...values })
    .returning();
  if (!row) throw new Error("no plant");
  await db.insert(ingestors).values({ customerId, plantId: row.id });
  return row;
}

export async function createLine(
  db: Db,
  customerId: string,
  plantId: string,
  values: Partial<typeof lines.$inferInsert> = {},
) {
  const [row] = await db
    .insert(lines)
    .values({ customerId, plantId, name: `Line ${seq()}`, ...values })
    .returning();
  if (!row) throw new Error("no line");
  return row;
}

export async function createUser(
  db: Db,
  customerId: string,
  opts: { admin?: boolean; email?: string; locationName?: string | null; lastLogin?: Date } = {},
) {
  passwordHash ??= hashPassword(PASSWORD);
  const [row] = await db
    .insert(users)
    .values({
      customerId,
      email: opts.email ?? `user${seq()}@example.test`,
      passwordHash: await passwordHash,
      locationName: opts.locationName ?? null,
      lastLogin: opts.lastLogin ?? null,
    })
    .returning();
  if (!row) throw new Error("no user");
  if (opts.admin) await db.insert(userRoles).values({ userId: row.id, role: "administrator" });
  return row;
}

/** Signs in through the real route and returns the cookie header for later requests. */
export async function signIn(app: App, email: string, password = PASSWORD): Promise<{ cookie: string }> {
  const res = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const c = res.cookies.find((x) => x.name === SESSION_COOKIE);
  if (!c) throw new Error("no session cookie");
  return { cookie: `${SESSION_COOKIE}=${c.value}` };
}

/** A provider company with one member of its staff (administrator at the provider location), signed in. */
export async function createProviderStaff(app: App, db: Db) {
  const provider = await createCustomer(db, { isProvider: true });
  const staff = await createUser(db, provider.id, { admin: true, locationName: LOCATION_PROVIDER });
  return { provider, staff, headers: await signIn(app, staff.email) };
}

const flagSetters = new WeakMap<App, Promise<{ cookie: string }>>();

/**
 * Switches a customer's feature flag the only way there is: as provider staff acting for that
 * customer (one provider-staff session per app). Returns the PUT's answer.
 */
export async function setFeatureFlag(app: App, db: Db, customerId: string, key: string, enabled: boolean) {
  let staff = flagSetters.get(app);
  if (!staff) {
    staff = createProviderStaff(app, db).then((p) => p.headers);
    flagSetters.set(app, staff);
  }
  const headers = await staff;
  const sw = await app.inject({
    method: "POST",
    url: "/api/auth/switch-customer",
    headers,
    payload: { customerId },
  });
  if (sw.statusCode !== 200) throw new Error(`switch-customer failed: ${sw.statusCode} ${sw.body}`);
  return app.inject({ method: "PUT", url: `/api/feature-flags/${key}`, headers, payload: { enabled } });
}

/**
 * A tenant with a plant, a line, an administrator and a user, signed in; and a second tenant
 * whose ids must never be reachable from the first.
 */
export async function createTenant(app: App, db: Db) {
  const customer = await createCustomer(db);
  const plant = await createPlant(db, customer.id);
  const line = await createLine(db, customer.id, plant.id);
  const admin = await createUser(db, customer.id, { admin: true });
  const user = await createUser(db, customer.id);
  return {
    customer,
    plant,
    line,
    admin,
    user,
    adminHeaders: await signIn(app, admin.email),
    userHeaders: await signIn(app, user.email),
  };
}

/** A monitor row straight in the table (the monitors API validates; tests of alerts need rows). */
export async function createMonitorRow(
  db: Db,
  line: { id: string; customerId: string; plantId: string },
  values: Partial<typeof monitors.$inferInsert> = {},
) {
  const [row] = await db
    .insert(monitors)
    .values({
      customerId: line.customerId,
      plantId: line.plantId,
      lineId: line.id,
      name: `Monitor ${seq()}`,
      type: "mvd",
      active: true,
      frequency: 15,
      filter: { signal_uuids: [], signal_group_uuids: [] },
      filterMd5: `md5-${seq()}`,
      ...values,
    })
    .returning();
  if (!row) throw new Error("no monitor");
  return row;
}

/** One stored evaluation of a monitor (slot defaults to now). */
export async function createEvaluation(
  db: Db,
  monitor: { id: string; customerId: string },
  values: Partial<typeof evaluations.$inferInsert> & Pick<typeof evaluations.$inferInsert, "state">,
) {
  const slot = values.slot ?? new Date();
  const [row] = await db
    .insert(evaluations)
    .values({ customerId: monitor.customerId, monitorId: monitor.id, evaluatedAt: slot, ...values, slot })
    .returning();
  if (!row) throw new Error("no evaluation");
  return row;
}

/**
 * A station on a line with signals for monitor tests: `measurements` active measurements (the
 * first associated with the result), one inactive measurement, a RESULT signal with pass/fail
 * classifications, a PART_ATTRIBUTE signal with two values, a signal group of the first two
 * measurements, and two model numbers.
 */
export async function createStationWithSignals(
  db: Db,
  customerId: string,
  lineId: string,
  opts: { measurements?: number } = {},
) {
  const [station] = await db
    .insert(stations)
    .values({ customerId, lineId, name: `OP${seq()}` })
    .returning();
  if (!station) throw new Error("no station");
  let num = 0;
  let txt = 0;
  const signal = async (
    name: string,
    entityType: (typeof signals.$inferInsert)["entityType"],
    extra: Partial<typeof signals.$inferInsert> = {},
  ) => {
    const isText = entityType === "RESULT" || entityType === "PART_ATTRIBUTE";
    const [row] = await db
      .insert(signals)
      .values({
        customerId,
        lineId,
        stationId: station.id,
        name,
        entityType,
        storage: isText ? "text" : "num",
        slot: isText ? txt++ : num++,
        ...extra,
      })
      .returning();
    if (!row) throw new Error("no signal");
    return row;
  };
  const result = await signal("Result", "RESULT");
  await db.insert(resultClassifications).values([
    { customerId, signalId: result.id, value: "OK", result: "pass", failureMode: null },
    { customerId, signalId: result.id, value: "NOK", result: "fail", failureMode: "Torque low" },
    { customerId, signalId: result.id, value: "SKIP", result: "other", failureMode: null },
  ]);
  const measurements = [];
  for (let i = 0; i < (opts.measurements ?? 3); i++) {
    measurements.push(
      await signal(`Torque ${i + 1}`, "MEASUREMENT", i === 0 ? { resultSignalId: result.id } : {}),
    );
  }
  const inactive = await signal("Retired", "MEASUREMENT", { isSignalActive: false });
  const attribute = await signal("Shift", "PART_ATTRIBUTE");
  await db.insert(partAttributeValues).values([
    { signalId: attribute.id, value: "A" },
    { signalId: attribute.id, value: "B" },
  ]);
  const [group] = await db
    .insert(signalGroups)
    .values({ customerId, lineId, name: `Group ${seq()}` })
    .returning();
  if (!group) throw new Error("no group");
  await db
    .insert(signalGroupMembers)
    .values(measurements.slice(0, 2).map((m) => ({ groupId: group.id, signalId: m.id })));
  await db
    .insert(modelNumbers)
    .values([
      { customerId, lineId, value: `M-${seq()}` },
      { customerId, lineId, value: `C-${seq()}`, isChallenge: true },
    ])
    .onConflictDoNothing();
  return { station, measurements, inactive, result, attribute, group };
}
