import { SESSION_COOKIE } from "@linewatch/contracts";
import type { Db } from "../src/db/client.js";
import {
  customers,
  evaluations,
  ingestors,
  lines,
  monitors,
  plants,
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
