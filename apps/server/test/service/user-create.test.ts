import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { USER_MESSAGES } from "@linewatch/contracts";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CUSTOMER_NAME, UserCreateError, userCreate } from "../../src/cli/user-create.js";
import type { Database, Db } from "../../src/db/client.js";
import { customers, ingestors, plants, userRoles, users } from "../../src/db/schema/index.js";
import { createServices } from "../../src/services.js";
import { createCustomer, createUser } from "../factories.js";
import { createTestDatabase } from "../helpers/db.js";

const PUBLIC_URL = "https://linewatch.example.test";
const tokenOf = (link: string) => new URL(link).searchParams.get("token") ?? "";

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
    expect(r.passwordLink.startsWith(`${PUBLIC_URL}/set-password?token=`)).toBe(true);
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
    expect(r.passwordLink.startsWith("http://localhost:8080/set-password?token=")).toBe(true);
    expect(await db.select().from(userRoles).where(eq(userRoles.userId, r.userId))).toEqual([]);
    expect(await customerCount(db)).toBe(1);
  });

  it("refuses a missing, an invalid and an existing email, creating nothing", async () => {
    const before = await customerCount(db);
    await expect(userCreate(db, { email: undefined })).rejects.toThrow(USER_MESSAGES.emailRequired);
    await expect(userCreate(db, { email: "not-an-email" })).rejects.toThrow("Enter a valid email address");
    const dup = userCreate(db, { email: "FIRST.ADMIN@example.test", customer: "Someone Else" });
    await expect(dup).rejects.toBeInstanceOf(UserCreateError);
    await expect(
      userCreate(db, { email: "first.admin@example.test", customer: "Someone Else" }),
    ).rejects.toThrow(USER_MESSAGES.exists);
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
  }, 60_000);
});
