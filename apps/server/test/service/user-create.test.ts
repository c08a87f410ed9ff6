import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { USER_MESSAGES } from "@linewatch/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR, DEFAULT_CUSTOMER_NAME, UserCreateError, userCreate } from "../../src/cli/user-create.js";
import type { Database, Db } from "../../src/db/client.js";
import { auditLog, customers, ingestors, plants, userRoles, users } from "../../src/db/schema/index.js";
import { createServices } from "../../src/services.js";
import { createCustomer, createUser, signIn } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";
import { createTestDatabase } from "../helpers/db.js";

const PUBLIC_URL = "https://linewatch.example.test";
const tokenOf = (link: string | null) => new URL(link ?? "").searchParams.get("token") ?? "";

async function customerCount(db: Db) {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(customers);
  return row?.n ?? 0;
}

describe("user:create on a fresh database", () => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(() => database?.close());

  it("creates the customer and the first administrator, whose link sets a password that signs in", async () => {
    const r = await userCreate(db, {
      email: " First.Admin@Example.test ",
      admin: true,
      publicUrl: PUBLIC_URL,
    });
    expect(r.email).toBe("first.admin@example.test");
    expect(r.customer).toMatchObject({ name: DEFAULT_CUSTOMER_NAME, isNew: true });
    expect(r.plant).toBeNull();
    expect(r.passwordLink?.startsWith(`${PUBLIC_URL}/set-password?token=`)).toBe(true);
    const roles = await db.select().from(userRoles).where(eq(userRoles.userId, r.userId));
    expect(roles.map((x) => x.role)).toEqual(["administrator"]);

    const services = createServices({ db, publicUrl: PUBLIC_URL });
    await services.auth.setPassword(tokenOf(r.passwordLink), "a long new password");
    const { token } = await services.auth.login({ email: r.email, password: "a long new password" });
    const ctx = await services.auth.resolve(token);
    expect(ctx).toMatchObject({ userId: r.userId, customerId: r.customer.id, isAdministrator: true });
    // The link works once.
    await expect(services.auth.setPassword(tokenOf(r.passwordLink), "another password")).rejects.toThrow();
  });

  it("adds later users to the one customer there is, as plain users without --admin", async () => {
    const r = await userCreate(db, { email: "second@example.test" });
    expect(r.customer).toMatchObject({ name: DEFAULT_CUSTOMER_NAME, isNew: false });
    expect(r.isAdministrator).toBe(false);
    expect(r.passwordLink?.startsWith("http://localhost:8080/set-password?token=")).toBe(true);
    expect(await db.select().from(userRoles).where(eq(userRoles.userId, r.userId))).toEqual([]);
    expect(await customerCount(db)).toBe(1);
  });

  it("refuses a missing and an invalid email, and an existing one named with another customer, creating nothing", async () => {
    const before = await customerCount(db);
    await expect(userCreate(db, { email: undefined })).rejects.toThrow(USER_MESSAGES.emailRequired);
    await expect(userCreate(db, { email: "not-an-email" })).rejects.toThrow("Enter a valid email address");
    const dup = userCreate(db, { email: "FIRST.ADMIN@example.test", customer: "Someone Else" });
    await expect(dup).rejects.toBeInstanceOf(UserCreateError);
    await expect(
      userCreate(db, { email: "first.admin@example.test", customer: "Someone Else" }),
    ).rejects.toThrow(
      `first.admin@example.test already exists as a user of "${DEFAULT_CUSTOMER_NAME}", not "Someone Else"`,
    );
    expect(await customerCount(db)).toBe(before);
  });

  it("creates a plant with its ingestor when --plant and --time-zone are given, as the user's location", async () => {
    const r = await userCreate(db, {
      email: "plant.admin@example.test",
      admin: true,
      customer: "my company",
      plant: "Plant North",
      timeZone: "america/chicago",
    });
    expect(r.customer).toMatchObject({ name: DEFAULT_CUSTOMER_NAME, isNew: false });
    expect(r.plant).toMatchObject({ name: "Plant North", timeZone: "America/Chicago", isNew: true });
    const [ingestor] = await db
      .select()
      .from(ingestors)
      .where(eq(ingestors.plantId, r.plant?.id ?? ""));
    expect(ingestor?.customerId).toBe(r.customer.id);
    const [user] = await db.select().from(users).where(eq(users.id, r.userId));
    expect(user).toMatchObject({ locationName: "Plant North", locationPlantId: r.plant?.id });
    // The same plant again is reused, not duplicated.
    const again = await userCreate(db, {
      email: "plant.user@example.test",
      plant: "Plant North",
      timeZone: "America/Chicago",
    });
    expect(again.plant).toMatchObject({ id: r.plant?.id, isNew: false });
    expect(await db.select().from(plants)).toHaveLength(1);
  });

  it("refuses a plant without a time zone and an unknown time zone", async () => {
    await expect(userCreate(db, { email: "p1@example.test", plant: "Plant South" })).rejects.toThrow(
      "--plant and --time-zone go together",
    );
    await expect(
      userCreate(db, { email: "p2@example.test", plant: "Plant South", timeZone: "Mars/Olympus" }),
    ).rejects.toThrow('Unknown time zone "Mars/Olympus"');
    expect(await db.select().from(plants)).toHaveLength(1);
  });
});

describe("user:create choosing the customer", () => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    // A seeded demo and the provider do not count as the install's own customer.
    await createCustomer(db, { name: "Demo Manufacturing", isDemo: true });
    const provider = await createCustomer(db, { name: "Linewatch", isProvider: true });
    await createUser(db, provider.id, { email: "support@provider.test" });
  });
  afterAll(() => database?.close());

  it("creates its own customer next to the demo and provider customers", async () => {
    const r = await userCreate(db, { email: "owner@acme.test", admin: true });
    expect(r.customer).toMatchObject({ name: DEFAULT_CUSTOMER_NAME, isNew: true });
  });

  it("uses a customer named with --customer (any case) or creates it", async () => {
    const existing = await userCreate(db, { email: "demo.admin@acme.test", customer: "demo manufacturing" });
    expect(existing.customer).toMatchObject({ name: "Demo Manufacturing", isNew: false });
    const created = await userCreate(db, { email: "boss@acme.test", admin: true, customer: "Acme Corp" });
    expect(created.customer).toMatchObject({ name: "Acme Corp", isNew: true });
  });

  it("asks for --customer when several customers could be meant", async () => {
    await expect(userCreate(db, { email: "who@acme.test" })).rejects.toThrow(
      /several customers .*choose one with --customer/,
    );
  });
});

describe("user:create run again for an existing email", () => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(() => database?.close());

  const rolesOf = async (userId: string) =>
    (await db.select().from(userRoles).where(eq(userRoles.userId, userId))).map((r) => r.role);

  it("is no error: --admin adds the administrator role once, nothing else is created", async () => {
    const first = await userCreate(db, { email: "ops@acme.test", customer: "Your Company" });
    expect(first).toMatchObject({ isNew: true, isAdministrator: false });
    const again = await userCreate(db, { email: "OPS@acme.test", admin: true, customer: "your company" });
    expect(again).toMatchObject({
      userId: first.userId,
      isNew: false,
      isAdministrator: true,
      roleAdded: true,
    });
    expect(again.customer).toEqual({ ...first.customer, isNew: false });
    expect(await rolesOf(first.userId)).toEqual(["administrator"]);
    const third = await userCreate(db, { email: "ops@acme.test", admin: true, customer: "Your Company" });
    expect(third).toMatchObject({ isNew: false, isAdministrator: true, roleAdded: false });
    // Without --admin a rerun takes nothing away.
    const plain = await userCreate(db, { email: "ops@acme.test" });
    expect(plain).toMatchObject({ isAdministrator: true, roleAdded: false });
    expect(await rolesOf(first.userId)).toEqual(["administrator"]);
    expect(await db.select().from(users)).toHaveLength(1);
    expect(await customerCount(db)).toBe(1);
    // The user's creation and the role granted are in the audit log, as the Users page's are;
    // the reruns that changed nothing are not.
    const trail = await db.select().from(auditLog).where(eq(auditLog.resource, "user")).orderBy(auditLog.at);
    expect(
      trail.map((r) => [
        r.action,
        r.actorEmail,
        (r.before as { role?: string } | null)?.role,
        (r.after as { role?: string }).role,
      ]),
    ).toEqual([
      ["create", CLI_ACTOR, undefined, "user"],
      ["update", CLI_ACTOR, "user", "administrator"],
    ]);
  });

  it("prints a new link while the user has no password, and none once one is set", async () => {
    const r = await userCreate(db, { email: "ops@acme.test", admin: true });
    expect(r.passwordLink).not.toBeNull();
    const services = createServices({ db, publicUrl: PUBLIC_URL });
    await services.auth.setPassword(tokenOf(r.passwordLink), "a long new password");
    const again = await userCreate(db, { email: "ops@acme.test", admin: true });
    expect(again.passwordLink).toBeNull();
    await expect(
      services.auth.login({ email: "ops@acme.test", password: "a long new password" }),
    ).resolves.toBeTruthy();
  });

  it("adds a plant it is given (the same in any letter case once), recorded in the audit log", async () => {
    const r = await userCreate(db, {
      email: "ops@acme.test",
      plant: "Plant East",
      timeZone: "Europe/Vienna",
    });
    expect(r.plant).toMatchObject({ name: "Plant East", timeZone: "Europe/Vienna", isNew: true });
    const [user] = await db.select().from(users).where(eq(users.id, r.userId));
    expect(user).toMatchObject({ locationName: "Plant East", locationPlantId: r.plant?.id });
    const again = await userCreate(db, {
      email: "ops@acme.test",
      plant: "plant east",
      timeZone: "Europe/Vienna",
    });
    expect(again.plant).toMatchObject({ id: r.plant?.id, name: "Plant East", isNew: false });
    expect(await db.select().from(plants)).toHaveLength(1);
    const records = await db.select().from(auditLog).where(eq(auditLog.resource, "plant"));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      action: "create",
      resourceId: r.plant?.id,
      actorUserId: null,
      actorEmail: CLI_ACTOR,
      after: { name: "Plant East", timeZone: "Europe/Vienna", active: true },
    });
  });
});

describe("user:create command line", () => {
  const script = fileURLToPath(new URL("../../src/cli/user-create.ts", import.meta.url));
  const cwd = fileURLToPath(new URL("../..", import.meta.url));
  // Argument errors are answered before any database is opened.
  const run = (args: string[]) =>
    promisify(execFile)("npx", ["tsx", script, ...args], {
      cwd,
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: "/nonexistent/linewatch-user-create" },
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it("exits 1 with a message for an invalid email and for an unknown option; prints usage for --help", async () => {
    const [invalid, unknown, help] = await Promise.all([
      run(["--email", "nope", "--admin"]),
      run(["--email", "a@b.test", "--bogus"]),
      run(["--help"]),
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("Error: Enter a valid email address");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Unknown option '--bogus'");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: npm run user:create -- --email");
  }, 180_000);
});

describe("user:create command line beside a running server on PostgreSQL", () => {
  const script = fileURLToPath(new URL("../../src/cli/user-create.ts", import.meta.url));
  const cwd = fileURLToPath(new URL("../..", import.meta.url));
  let t: TestContext | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    if (!process.env.DATABASE_URL) return;
    const database = await createTestDatabase();
    url = database.url;
    t = await createTestApp({ database });
  });
  afterAll(() => closeTestApp(t));

  const run = (args: string[]) =>
    promisify(execFile)("npx", ["tsx", script, ...args], {
      cwd,
      env: { ...process.env, DATABASE_URL: url },
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  // The embedded database belongs to one process (the folder's lock); PostgreSQL is shared.
  it.runIf(!!process.env.DATABASE_URL)(
    "creates the administrator and, run again, adds the role a signed-in user's running session sees",
    async () => {
      const app = t as TestContext;
      const first = await run(["--email", "first@acme.test", "--customer", "Your Company"]);
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      expect(first.stdout).toContain("User: first@acme.test (created)");
      const link = first.stdout.split("\n").find((l) => l.includes("/set-password?token="));
      await app.services.auth.setPassword(tokenOf(link ?? null), "a long new password");
      const headers = await signIn(app.app, "first@acme.test", "a long new password");
      const denied = await app.app.inject({
        method: "POST",
        url: "/api/plants",
        headers,
        payload: { name: "Plant One", timeZone: "Europe/Berlin" },
      });
      expect(denied.statusCode).toBe(403);

      const again = await run(["--email", "first@acme.test", "--admin", "--customer", "Your Company"]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("User: first@acme.test (exists) (administrator role added)");
      expect(again.stdout).toContain("no new link is made");
      expect(again.stdout).not.toContain("set-password");
      // The running server's session cache hears the role change (no restart, no new sign-in).
      await expect
        .poll(
          async () =>
            (
              await app.app.inject({
                method: "POST",
                url: "/api/plants",
                headers,
                payload: { name: "Plant One", timeZone: "Europe/Berlin" },
              })
            ).statusCode,
          { timeout: 10_000 },
        )
        .toBe(201);
    },
    120_000,
  );
});
