import { AUTH_MESSAGES, LOGIN_LIMIT } from "@linewatch/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createCustomer, createUser, PASSWORD } from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

// Every password check the sign-in route makes, counted (the real check still runs).
const checks = vi.hoisted(() => ({ n: 0 }));
vi.mock("../../src/lib/password.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/lib/password.js")>();
  return {
    ...real,
    verifyPassword: (...args: Parameters<typeof real.verifyPassword>) => {
      checks.n++;
      return real.verifyPassword(...args);
    },
  };
});

let t: TestContext;
let customerId: string;
beforeAll(async () => {
  t = await createTestApp();
  customerId = (await createCustomer(t.database.db)).id;
});
afterAll(() => closeTestApp(t));
beforeEach(() => {
  checks.n = 0;
});

// Each test signs in from its own client addresses (the connection's: no proxy is trusted).
let addressSeq = 0;
const newAddress = () => `198.51.100.${++addressSeq}`;

const login = (email: string, password: string, address: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress: address,
    payload: { email, password },
  });

const statuses = (rs: { statusCode: number }[]) =>
  rs.reduce<Record<number, number>>((m, r) => {
    m[r.statusCode] = (m[r.statusCode] ?? 0) + 1;
    return m;
  }, {});

/** Runs with the clock moved on by `ms`, then puts it back. */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const saved = t.now.value;
  t.now.value = new Date(saved.getTime() + ms);
  try {
    return await fn();
  } finally {
    t.now.value = saved;
  }
}

describe("sign-in limit per email", () => {
  it("checks at most 5 passwords of 30 concurrent wrong sign-ins for one email; the rest answer 429", async () => {
    const u = await createUser(t.database.db, customerId);
    const address = newAddress();
    const rs = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(u.email, `wrong password ${i}`, address)),
    );
    expect(checks.n).toBe(LOGIN_LIMIT.failures);
    expect(statuses(rs)).toEqual({ 401: 5, 429: 25 });
    expect(rs.find((r) => r.statusCode === 429)?.json().message).toBe(AUTH_MESSAGES.tooManyAttempts);
    // The right password is not checked either until the window has passed.
    expect((await login(u.email, PASSWORD, address)).statusCode).toBe(429);
    expect(checks.n).toBe(5);
    expect(
      (await later(LOGIN_LIMIT.windowMs + 1000, () => login(u.email, PASSWORD, address))).statusCode,
    ).toBe(200);
  });

  it("holds across client addresses and letter case: 30 concurrent attempts from 30 addresses check 5", async () => {
    const u = await createUser(t.database.db, customerId);
    const rs = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login(i % 2 ? u.email.toUpperCase() : u.email, "wrong password", newAddress()),
      ),
    );
    expect(checks.n).toBe(5);
    expect(statuses(rs)).toEqual({ 401: 5, 429: 25 });
  });

  it("does not count right passwords: a sign-in after 4 failures forgets them", async () => {
    const u = await createUser(t.database.db, customerId);
    const address = newAddress();
    for (let i = 0; i < 4; i++)
      expect((await login(u.email, "wrong password", address)).statusCode).toBe(401);
    expect((await login(u.email, PASSWORD, address)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await login(u.email, "wrong password", address)).statusCode).toBe(401);
    expect((await login(u.email, PASSWORD, address)).statusCode).toBe(429);
  });
});

describe("sign-in limit per client address (password spraying)", () => {
  it("checks at most 20 of 30 concurrent wrong sign-ins across 30 emails from one address, then answers 429 to it", async () => {
    const emails = Array.from({ length: 30 }, (_, i) => `sprayed-${i}-${crypto.randomUUID()}@example.test`);
    const u = await createUser(t.database.db, customerId);
    const address = newAddress();
    const rs = await Promise.all(emails.map((e) => login(e, "Summer2026!", address)));
    expect(checks.n).toBe(20);
    expect(statuses(rs)).toEqual({ 401: 20, 429: 10 });
    expect(rs.find((r) => r.statusCode === 429)?.json().message).toBe(
      AUTH_MESSAGES.tooManyAttemptsFromAddress,
    );
    // Any further sign-in from that address waits, even a right one; other addresses are not affected.
    expect((await login(u.email, PASSWORD, address)).statusCode).toBe(429);
    expect((await login(u.email, PASSWORD, newAddress())).statusCode).toBe(200);
    expect(checks.n).toBe(21);
    // After 5 minutes the address may sign in again.
    expect(
      (await later(LOGIN_LIMIT.windowMs + 1000, () => login(u.email, PASSWORD, address))).statusCode,
    ).toBe(200);
  });

  it("does not let a client that is not a trusted proxy pick its address with X-Forwarded-For", async () => {
    const remoteAddress = "203.0.113.9";
    const rs = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/login",
          remoteAddress,
          headers: { "x-forwarded-for": `192.0.2.${i + 1}` },
          payload: { email: `spoof-${i}-${crypto.randomUUID()}@example.test`, password: "whatever1234" },
        }),
      ),
    );
    expect(checks.n).toBe(20);
    expect(statuses(rs)).toEqual({ 401: 20, 429: 10 });
  });
});

describe("client address by default (TRUST_PROXY unset)", () => {
  it("ignores X-Forwarded-For even from loopback: 30 sign-ins naming 30 addresses count as one address", async () => {
    // The app of this file runs on loadConfig's defaults; only this test signs in as 127.0.0.1.
    const rs = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/login",
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": `192.0.2.${i + 1}` },
          payload: { email: `rotated-${i}-${crypto.randomUUID()}@example.test`, password: "whatever1234" },
        }),
      ),
    );
    expect(checks.n).toBe(20);
    expect(statuses(rs)).toEqual({ 401: 20, 429: 10 });
    expect(rs.find((r) => r.statusCode === 429)?.json().message).toBe(
      AUTH_MESSAGES.tooManyAttemptsFromAddress,
    );
  });
});

describe("request rate limit on the public routes", () => {
  it("answers 429 once one address has made the configured number of requests a minute to a route", async () => {
    const limited = await createTestApp({ rateLimitPerMinute: 3, ingestRateLimitPerMinute: 2 });
    try {
      const post = (url: string, address: string, payload: object) =>
        limited.app.inject({ method: "POST", url, remoteAddress: address, payload });
      const a = newAddress();
      const logins = [];
      for (let i = 0; i < 4; i++)
        logins.push(await post("/api/auth/login", a, { email: "x@example.test", password: "p" }));
      expect(logins.map((r) => r.statusCode)).toEqual([401, 401, 401, 429]);
      expect(logins[3]?.json().message).toMatch(/^Too many requests/);
      // The limit is the route's, however the path is spelled.
      expect(
        (await post("/%61pi/auth/login", a, { email: "x@example.test", password: "p" })).statusCode,
      ).toBe(429);
      // Another address, and another public route, count separately.
      expect(
        (await post("/api/auth/login", newAddress(), { email: "x@example.test", password: "p" })).statusCode,
      ).toBe(401);
      const sets = [];
      for (let i = 0; i < 4; i++)
        sets.push(
          await post("/api/auth/set-password", a, { token: "nope", password: "long enough password" }),
        );
      expect(sets.map((r) => r.statusCode)).toEqual([400, 400, 400, 429]);
      const ingests = [];
      for (let i = 0; i < 3; i++) ingests.push(await post("/api/ingest", a, []));
      expect(ingests.map((r) => r.statusCode)).toEqual([401, 401, 429]);
      // Routes behind a session are not limited.
      for (let i = 0; i < 5; i++) {
        const r = await limited.app.inject({ url: "/api/auth/me", remoteAddress: a });
        expect(r.statusCode).toBe(401);
      }
    } finally {
      await closeTestApp(limited);
    }
  });
});
