import { parseArgs } from "node:util";
import { canonicalTimeZone, plantNameError, ZAddUserBody } from "@linewatch/contracts";
import { and, eq, not, sql } from "drizzle-orm";
import { loadConfig } from "../config.js";
import { type Db, openDatabase, type Tx } from "../db/client.js";
import { customers, plants, userRoles, users } from "../db/schema/index.js";
import { type AuditActor, recordAudit } from "../modules/audit-log/audit-log.service.js";
import { insertPlant } from "../modules/plants/plants.service.js";
import { createServices } from "../services.js";
import { runIfEntryPoint } from "./run-command.js";

export const DEFAULT_CUSTOMER_NAME = "My Company";

export type UserCreateOptions = {
  email: string | undefined;
  admin?: boolean;
  /** Customer by name (created when missing). Without it: the one customer there is, or a new one. */
  customer?: string;
  /** A plant of the customer (created when missing); needs `timeZone` and becomes the user's location. */
  plant?: string;
  timeZone?: string;
  /** Base of the password link (PUBLIC_URL). */
  publicUrl?: string;
  now?: () => Date;
};

export type UserCreateResult = {
  userId: string;
  email: string;
  /** false: the email existed and the run only added what was asked for. */
  isNew: boolean;
  isAdministrator: boolean;
  /** An existing user who became an administrator in this run. */
  roleAdded: boolean;
  customer: { id: string; name: string; isNew: boolean };
  plant: { id: string; name: string; timeZone: string; isNew: boolean } | null;
  /** null: the user has set a password already (a new link would only let someone reset it). */
  passwordLink: string | null;
};

/** Who the audit log names for a change the command line makes (no signed-in user). */
export const CLI_ACTOR = "user:create (command line)";

/** A user as the audit log records it (as the Users page's changes: users.service.ts). */
type AuditedUser = { email: string; role: "administrator" | "user"; locationName: string | null };

/** Records the command line's change of a user in the audit log, in the change's transaction. */
async function auditCliUser(
  tx: Tx,
  customerId: string,
  userId: string,
  plantId: string | null,
  before: AuditedUser | null,
  after: AuditedUser,
) {
  const actor: AuditActor = { customerId, userId: null, email: CLI_ACTOR, isProviderStaff: false };
  await recordAudit(tx, actor, {
    resource: "user",
    action: before === null ? "create" : "update",
    resourceId: userId,
    resourceName: after.email,
    plantId,
    before,
    after,
  });
}

/** A refusal with a message for the person at the terminal (exit code 1). */
export class UserCreateError extends Error {
  override name = "UserCreateError";
}

async function findOrCreateCustomer(tx: Tx, name: string | undefined) {
  if (name != null) {
    const wanted = name.trim();
    if (!wanted) throw new UserCreateError("--customer needs a name");
    const found = await tx
      .select({ id: customers.id, name: customers.name })
      .from(customers)
      .where(sql`lower(${customers.name}) = lower(${wanted})`);
    if (found.length > 1) throw new UserCreateError(`Several customers are named "${wanted}"`);
    if (found[0]) return { ...found[0], isNew: false };
    return insertCustomer(tx, wanted);
  }
  // The seeded demo and the provider's own company do not count as "a customer exists".
  const own = await tx
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(and(not(customers.isDemo), not(customers.isProvider)));
  if (own.length > 1) {
    const names = own.map((c) => `"${c.name}"`).join(", ");
    throw new UserCreateError(`There are several customers (${names}): choose one with --customer "Name"`);
  }
  if (own[0]) return { ...own[0], isNew: false };
  return insertCustomer(tx, DEFAULT_CUSTOMER_NAME);
}

async function insertCustomer(tx: Tx, name: string) {
  const [row] = await tx
    .insert(customers)
    .values({ name })
    .returning({ id: customers.id, name: customers.name });
  if (!row) throw new Error("customer insert returned nothing");
  return { ...row, isNew: true };
}

/** The customer's plant by name, ignoring case as the unique index does, or a new one. */
async function findOrCreatePlant(tx: Tx, customerId: string, name: string, timeZone: string) {
  const [found] = await tx
    .select({ id: plants.id, name: plants.name, timeZone: plants.timeZone })
    .from(plants)
    .where(and(eq(plants.customerId, customerId), sql`lower(${plants.name}) = lower(${name})`));
  if (found) {
    if (found.timeZone !== timeZone)
      throw new UserCreateError(
        `Plant "${found.name}" exists with time zone ${found.timeZone}, not ${timeZone}`,
      );
    return { ...found, isNew: false };
  }
  const actor: AuditActor = { customerId, userId: null, email: CLI_ACTOR, isProviderStaff: false };
  const row = await insertPlant(tx, actor, { name, timeZone });
  return { id: row.id, name: row.name, timeZone: row.timeZone, isNew: true };
}

/** Checks the options before anything touches the database; throws UserCreateError. */
export function checkUserCreateOptions(options: UserCreateOptions) {
  const parsed = ZAddUserBody.shape.email.safeParse(options.email ?? "");
  if (!parsed.success) throw new UserCreateError(parsed.error.issues[0]?.message ?? "Invalid email");
  const plantName = options.plant?.trim() || null;
  if (!plantName !== !options.timeZone?.trim())
    throw new UserCreateError("--plant and --time-zone go together: give both or neither");
  const nameError = plantName && plantNameError(plantName);
  if (nameError) throw new UserCreateError(nameError);
  const timeZone = options.timeZone ? canonicalTimeZone(options.timeZone.trim()) : null;
  if (options.timeZone && !timeZone)
    throw new UserCreateError(
      `Unknown time zone "${options.timeZone}": use an IANA name such as Europe/Berlin`,
    );
  return { email: parsed.data.toLowerCase(), plantName, timeZone };
}

/**
 * Checks the options, then in one transaction: the user's customer, plant and user — or, for an
 * email that exists, the administrator role and the plant it lacks; then the link.
 */
export async function userCreate(db: Db, options: UserCreateOptions): Promise<UserCreateResult> {
  const { email, plantName, timeZone } = checkUserCreateOptions(options);
  const wantsAdmin = options.admin ?? false;
  const done = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({
        id: users.id,
        customerId: users.customerId,
        customerName: customers.name,
        locationName: users.locationName,
        hasPassword: sql<boolean>`${users.passwordHash} is not null`,
        isAdministrator: sql<boolean>`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.role} = 'administrator')`,
      })
      .from(users)
      .innerJoin(customers, eq(customers.id, users.customerId))
      .where(sql`lower(${users.email}) = ${email}`);
    if (existing) {
      // The same command again: the user keeps their customer; another one named is a mistake.
      const named = options.customer?.trim();
      if (named && named.toLowerCase() !== existing.customerName.toLowerCase())
        throw new UserCreateError(
          `${email} already exists as a user of "${existing.customerName}", not "${named}"`,
        );
      const customer = { id: existing.customerId, name: existing.customerName, isNew: false };
      const plant =
        plantName && timeZone ? await findOrCreatePlant(tx, customer.id, plantName, timeZone) : null;
      if (plant && !existing.locationName)
        await tx
          .update(users)
          .set({ locationName: plant.name, locationPlantId: plant.id })
          .where(eq(users.id, existing.id));
      const roleAdded = wantsAdmin && !existing.isAdministrator;
      if (roleAdded)
        await tx
          .insert(userRoles)
          .values({ userId: existing.id, role: "administrator" })
          .onConflictDoNothing();
      const locationSet = !!plant && !existing.locationName;
      // A role granted or a location set from the command line leaves its trace as the page's do.
      if (roleAdded || locationSet) {
        const before: AuditedUser = {
          email,
          role: existing.isAdministrator ? "administrator" : "user",
          locationName: existing.locationName,
        };
        await auditCliUser(tx, customer.id, existing.id, plant?.id ?? null, before, {
          email,
          role: existing.isAdministrator || roleAdded ? "administrator" : "user",
          locationName: locationSet && plant ? plant.name : existing.locationName,
        });
      }
      return {
        userId: existing.id,
        isNew: false,
        isAdministrator: existing.isAdministrator || roleAdded,
        roleAdded,
        needsLink: !existing.hasPassword,
        customer,
        plant,
      };
    }
    const customer = await findOrCreateCustomer(tx, options.customer);
    const plant =
      plantName && timeZone ? await findOrCreatePlant(tx, customer.id, plantName, timeZone) : null;
    const [user] = await tx
      .insert(users)
      .values({
        customerId: customer.id,
        email,
        locationName: plant?.name ?? null,
        locationPlantId: plant?.id ?? null,
      })
      .returning({ id: users.id });
    if (!user) throw new Error("user insert returned nothing");
    if (wantsAdmin) await tx.insert(userRoles).values({ userId: user.id, role: "administrator" });
    await auditCliUser(tx, customer.id, user.id, plant?.id ?? null, null, {
      email,
      role: wantsAdmin ? "administrator" : "user",
      locationName: plant?.name ?? null,
    });
    return {
      userId: user.id,
      isNew: true,
      isAdministrator: wantsAdmin,
      roleAdded: false,
      needsLink: true,
      customer,
      plant,
    };
  });

  // After the commit: the token row refers to the user.
  const services = createServices({
    db,
    publicUrl: (options.publicUrl ?? "http://localhost:8080").replace(/\/$/, ""),
    now: options.now,
  });
  const { needsLink, ...result } = done;
  const passwordLink = needsLink ? await services.auth.createPasswordLink(done.userId) : null;
  return { ...result, email, passwordLink };
}

const USAGE = `Usage: npm run user:create -- --email <email> [--admin] [--customer "Name"] [--plant "Name" --time-zone <IANA zone>]

  --email      the new user's email (required)
  --admin      give the user the administrator role
  --customer   the customer by name, created when missing; without it the one customer there is
               (the demo and provider customers aside), or a new "${DEFAULT_CUSTOMER_NAME}"
  --plant      a plant of the customer, created when missing, as the user's location
  --time-zone  the plant's time zone, e.g. Europe/Berlin (with --plant)

Run again for an existing email, it adds what is missing (--admin's role, --plant) and says what
it did; it prints a new password link only while the user has not set a password.

Opens DATABASE_URL (the server may be running), else the embedded database in DATA_DIR (default
./data): stop the app first when it runs on the embedded database. The link's base is PUBLIC_URL
(default http://localhost:8080).`;

const parseCliArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      email: { type: "string" },
      admin: { type: "boolean" },
      customer: { type: "string" },
      plant: { type: "string" },
      "time-zone": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  }).values;

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parseCliArgs>;
  try {
    values = parseCliArgs(argv);
  } catch (err) {
    console.error(`Error: ${(err as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }

  const options = {
    email: values.email,
    admin: values.admin,
    customer: values.customer,
    plant: values.plant,
    timeZone: values["time-zone"],
  };
  try {
    checkUserCreateOptions(options);
  } catch (err) {
    if (!(err instanceof UserCreateError)) throw err;
    console.error(`Error: ${err.message}`);
    return 1;
  }

  const config = loadConfig(process.env, []);
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(
      config.databaseUrl ? { databaseUrl: config.databaseUrl, poolSize: 1 } : { dataDir: config.dataDir },
    );
  } catch (err) {
    // Above all the embedded database held by a running server: its message says what to do.
    console.error(`Error: ${(err as Error).message}`);
    return 1;
  }
  try {
    const r = await userCreate(database.db, { ...options, publicUrl: config.publicUrl });
    const where = database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`;
    console.log(`Database: ${where}`);
    console.log(`Customer: ${r.customer.name}${r.customer.isNew ? " (created)" : ""}`);
    if (r.plant)
      console.log(`Plant: ${r.plant.name}, ${r.plant.timeZone}${r.plant.isNew ? " (created)" : " (exists)"}`);
    const role = r.roleAdded ? " (administrator role added)" : r.isAdministrator ? " (administrator)" : "";
    console.log(`User: ${r.email}${r.isNew ? " (created)" : " (exists)"}${role}`);
    if (r.passwordLink) {
      console.log("\nOne-time link to set the password (valid for 7 days, shown only now):");
      console.log(r.passwordLink);
    } else {
      console.log("\nThe user has set a password already: it stays, and no new link is made.");
    }
    return 0;
  } catch (err) {
    if (err instanceof UserCreateError) {
      console.error(`Error: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

runIfEntryPoint(import.meta.url, main);
