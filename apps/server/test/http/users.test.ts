import {
  LOCATION_CORPORATE,
  LOCATION_PROVIDER,
  LOCATION_UNASSIGNED,
  SERVER_MESSAGES,
  type TAddUserResponse,
  type TUserRow,
  USER_MESSAGES,
} from "@linewatch/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCustomer,
  createPlant,
  createTenant,
  createUser,
  setFeatureFlag,
  signIn,
} from "../factories.js";
import { closeTestApp, createTestApp, type TestContext } from "../helpers/app.js";

let t: TestContext;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTenant(t.app, t.database.db);
  b = await createTenant(t.app, t.database.db);
});
afterAll(() => closeTestApp(t));

type Headers = { cookie: string };
type Method = "GET" | "POST" | "PUT" | "PATCH";
const call = (method: Method, url: string, headers?: Headers, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const email = () => `new-${crypto.randomUUID()}@example.test`;
const list = async (headers: Headers) => {
  const res = await call("GET", "/api/customer-users-for-user", headers);
  expect(res.statusCode).toBe(200);
  return res.json() as TUserRow[];
};
const addUser = (headers: Headers, customerId: string, body: Record<string, unknown>) =>
  call("POST", `/api/add-user?customerId=${customerId}`, headers, body);
/** Feature flags are switched by provider staff acting for the customer. */
const setFlag = (customerId: string, key: string, enabled: boolean) =>
  setFeatureFlag(t.app, t.database.db, customerId, key, enabled);

/** A provider company with one member of its staff (administrator, provider location). */
async function createProviderStaff() {
  const provider = await createCustomer(t.database.db, { isProvider: true });
  const staff = await createUser(t.database.db, provider.id, {
    admin: true,
    locationName: LOCATION_PROVIDER,
  });
  return { provider, staff, headers: await signIn(t.app, staff.email) };
}

/** Every users route, with a body that would be valid for tenant A. */
const routes = (): { method: Method; url: string; payload?: unknown }[] => [
  { method: "GET", url: "/api/customer-users-for-user" },
  {
    method: "POST",
    url: `/api/add-user?customerId=${a.customer.id}`,
    payload: { email: email(), locationPlantId: null, locationName: null },
  },
  {
    method: "POST",
    url: `/api/administration/customers/${a.customer.id}/user`,
    payload: { email: email(), locationPlantId: null, locationName: null },
  },
  {
    method: "POST",
    url: "/api/update-user-roles",
    payload: { userId: a.user.id, role: "administrator", customerId: a.customer.id },
  },
  {
    method: "PUT",
    url: "/api/update-user-roles",
    payload: { userId: a.user.id, role: "administrator", customerId: a.customer.id },
  },
  { method: "POST", url: "/api/users", payload: { userId: a.user.id, customerId: a.customer.id } },
  {
    method: "PATCH",
    url: `/api/users/${a.user.id}`,
    payload: { locationName: LOCATION_CORPORATE, locationPlantId: null },
  },
  { method: "POST", url: "/api/check-users-roles", payload: { userIds: [a.user.id], role: "administrator" } },
];

describe("access", () => {
  it("answers 401 Unauthorized on every users route without a session", async () => {
    for (const r of routes()) {
      const res = await call(r.method, r.url, undefined, r.payload);
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(res.json()).toEqual({ message: SERVER_MESSAGES.unauthorized });
    }
  });

  it("answers 403 Forbidden resource to a plain user on every users route, and changes nothing", async () => {
    for (const r of routes()) {
      const res = await call(r.method, r.url, a.userHeaders, r.payload);
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json()).toEqual({ message: USER_MESSAGES.forbidden });
    }
    const rows = await list(a.adminHeaders);
    expect(rows.find((u) => u.id === a.user.id)).toMatchObject({ role: "user", locationName: null });
  });

  it("answers 404 for another customer's ids", async () => {
    const h = a.adminHeaders;
    const notFound = [
      await addUser(h, b.customer.id, { email: email(), locationPlantId: null, locationName: null }),
      await call("POST", `/api/administration/customers/${b.customer.id}/user`, h, {
        email: email(),
        locationPlantId: null,
        locationName: null,
      }),
      // Another customer in the body, or another customer's user with our own customer.
      await call("POST", "/api/update-user-roles", h, {
        userId: b.user.id,
        role: "administrator",
        customerId: b.customer.id,
      }),
      await call("POST", "/api/update-user-roles", h, {
        userId: b.user.id,
        role: "administrator",
        customerId: a.customer.id,
      }),
      await call("PUT", "/api/update-user-roles", h, {
        userId: b.admin.id,
        role: "administrator",
        customerId: a.customer.id,
      }),
      await call("PATCH", `/api/users/${b.user.id}`, h, { locationName: null, locationPlantId: null }),
      await call("POST", "/api/check-users-roles", h, {
        userIds: [a.user.id, b.admin.id],
        role: "administrator",
      }),
    ];
    for (const res of notFound) {
      expect(res.statusCode, res.body).toBe(404);
      expect([USER_MESSAGES.userNotFound, USER_MESSAGES.customerNotFound]).toContain(res.json().message);
    }
    // Deletion, with the flag off and on for A: B's user is not found either way.
    for (const body of [
      { userId: b.user.id, customerId: b.customer.id },
      { userId: b.user.id, customerId: a.customer.id },
    ]) {
      const res = await call("POST", "/api/users", h, body);
      expect(res.statusCode, "flag off").toBe(404);
    }
    await setFlag(a.customer.id, "userDeletion", true);
    try {
      for (const body of [
        { userId: b.user.id, customerId: b.customer.id },
        { userId: b.user.id, customerId: a.customer.id },
      ]) {
        const res = await call("POST", "/api/users", h, body);
        expect(res.statusCode).toBe(404);
      }
    } finally {
      await setFlag(a.customer.id, "userDeletion", false);
    }
    // B is untouched and A's list never shows B's users.
    const bRows = await list(b.adminHeaders);
    expect(bRows.find((u) => u.id === b.user.id)).toMatchObject({ role: "user", locationName: null });
    expect(bRows.find((u) => u.id === b.admin.id)?.role).toBe("administrator");
    const aIds = (await list(h)).map((u) => u.id);
    expect(aIds).not.toContain(b.user.id);
    expect(aIds).not.toContain(b.admin.id);
  });

  it("refuses a location plant of another customer", async () => {
    const res = await call("PATCH", `/api/users/${a.user.id}`, a.adminHeaders, {
      locationName: null,
      locationPlantId: b.plant.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(USER_MESSAGES.locationPlantNotFound);
    const add = await addUser(a.adminHeaders, a.customer.id, {
      email: email(),
      locationName: null,
      locationPlantId: b.plant.id,
    });
    expect(add.statusCode).toBe(400);
  });
});

describe("validation", () => {
  it("answers 400 with a message naming the field for bad bodies, params and queries", async () => {
    const h = a.adminHeaders;
    const longEmail = `${"x".repeat(250)}@example.test`;
    const cases: { method: Method; url: string; payload?: unknown; expect: RegExp }[] = [
      {
        method: "POST",
        url: "/api/add-user?customerId=not-a-uuid",
        payload: { email: email(), locationPlantId: null, locationName: null },
        expect: /querystring\.customerId/,
      },
      {
        method: "POST",
        url: "/api/add-user",
        payload: { email: email(), locationPlantId: null, locationName: null },
        expect: /querystring\.customerId/,
      },
      {
        method: "POST",
        url: `/api/add-user?customerId=${a.customer.id}`,
        payload: { email: 5, locationPlantId: null, locationName: null },
        expect: /body\.email/,
      },
      {
        method: "POST",
        url: `/api/add-user?customerId=${a.customer.id}`,
        payload: { email: "", locationPlantId: null, locationName: null },
        expect: new RegExp(USER_MESSAGES.emailRequired),
      },
      {
        method: "POST",
        url: `/api/add-user?customerId=${a.customer.id}`,
        payload: { email: "not an email", locationPlantId: null, locationName: null },
        expect: /body\.email/,
      },
      {
        method: "POST",
        url: `/api/add-user?customerId=${a.customer.id}`,
        payload: { email: longEmail, locationPlantId: null, locationName: null },
        expect: /body\.email/,
      },
      {
        method: "POST",
        url: `/api/add-user?customerId=${a.customer.id}`,
        payload: { email: email(), locationPlantId: null, locationName: "x".repeat(201) },
        expect: /body\.locationName/,
      },
      {
        method: "POST",
        url: `/api/add-user?customerId=${a.customer.id}`,
        payload: { email: email(), locationPlantId: null, locationName: null, role: "administrator" },
        expect: /(unknown field|Unrecognized key).*role/i,
      },
      {
        method: "POST",
        url: "/api/administration/customers/123/user",
        payload: { email: email(), locationPlantId: null, locationName: null },
        expect: /params\.customerId/,
      },
      {
        method: "POST",
        url: "/api/update-user-roles",
        payload: { userId: a.user.id, role: "owner", customerId: a.customer.id },
        expect: /body\.role/,
      },
      {
        method: "PUT",
        url: "/api/update-user-roles",
        payload: { userId: 42, role: "administrator", customerId: a.customer.id },
        expect: /body\.userId/,
      },
      {
        method: "POST",
        url: "/api/users",
        payload: { userId: a.user.id, customerId: a.customer.id, hard: true },
        expect: /(unknown field|Unrecognized key).*hard/i,
      },
      {
        method: "PATCH",
        url: "/api/users/abc",
        payload: { locationName: null, locationPlantId: null },
        expect: /params\.userId/,
      },
      {
        method: "PATCH",
        url: `/api/users/${a.user.id}`,
        payload: { locationName: "Somewhere", locationPlantId: "plant-1" },
        expect: /body\.locationPlantId/,
      },
      {
        method: "PATCH",
        url: `/api/users/${a.user.id}`,
        payload: { locationName: "y".repeat(201), locationPlantId: null },
        expect: /body\.locationName/,
      },
      {
        method: "POST",
        url: "/api/check-users-roles",
        payload: { userIds: "all", role: "administrator" },
        expect: /body\.userIds/,
      },
    ];
    for (const c of cases) {
      const res = await call(c.method, c.url, h, c.payload);
      expect(res.statusCode, `${c.method} ${c.url} ${JSON.stringify(c.payload)}`).toBe(400);
      expect(res.json().message).toMatch(c.expect);
    }
  });

  it("refuses a location that is not a plant, CORPORATE, UNASSIGNED or the provider's", async () => {
    const res = await call("PATCH", `/api/users/${a.user.id}`, a.adminHeaders, {
      locationName: "Mars",
      locationPlantId: null,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(USER_MESSAGES.unknownLocation("Mars"));
  });
});

describe("list and add", () => {
  it("lists the customer's users newest login first, with role, location and null for never logged in", async () => {
    const c = await createTenant(t.app, t.database.db);
    const old = await createUser(t.database.db, c.customer.id, {
      lastLogin: new Date("2020-01-01T00:00:00Z"),
    });
    const never = await createUser(t.database.db, c.customer.id);
    const rows = await list(c.adminHeaders);
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining([c.admin.id, c.user.id, old.id, never.id]));
    expect(rows).toHaveLength(4);
    // Both signed in just now (createTenant), then the 2020 login, then never.
    expect(rows.slice(2).map((r) => r.id)).toEqual([old.id, never.id]);
    expect(rows.find((r) => r.id === never.id)).toEqual({
      id: never.id,
      email: never.email,
      lastLogin: null,
      role: "user",
      locationName: null,
      locationPlantId: null,
      isProviderStaff: false,
    });
    expect(rows.find((r) => r.id === c.admin.id)?.role).toBe("administrator");
    expect(rows.find((r) => r.id === c.admin.id)?.lastLogin).not.toBeNull();
  });

  it("adds a user whose one-time link sets a password once, then signs in", async () => {
    const address = email();
    const res = await addUser(a.adminHeaders, a.customer.id, {
      email: `  ${address.toUpperCase()}  `,
      locationPlantId: a.plant.id,
      locationName: null,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as TAddUserResponse;
    expect(body.user).toMatchObject({
      email: address,
      role: "user",
      lastLogin: null,
      locationPlantId: a.plant.id,
      locationName: a.plant.name,
      isProviderStaff: false,
    });
    expect((await list(a.adminHeaders)).map((u) => u.id)).toContain(body.user.id);

    const token = new URL(body.passwordLink).searchParams.get("token");
    expect(token).toBeTruthy();
    const password = "a new password for the user";
    const set = await call("POST", "/api/auth/set-password", undefined, { token, password });
    expect(set.statusCode).toBe(204);
    const again = await call("POST", "/api/auth/set-password", undefined, {
      token,
      password: "another one!",
    });
    expect(again.statusCode).toBe(400);

    const session = await signIn(t.app, address, password);
    const me = await call("GET", "/api/auth/me", session);
    expect(me.json()).toMatchObject({
      email: address,
      isAdministrator: false,
      customer: { id: a.customer.id },
    });
    expect((await list(a.adminHeaders)).find((u) => u.id === body.user.id)?.lastLogin).not.toBeNull();
  });

  it("adds users at CORPORATE and UNASSIGNED (both null)", async () => {
    const corp = await addUser(a.adminHeaders, a.customer.id, {
      email: email(),
      locationPlantId: null,
      locationName: LOCATION_CORPORATE,
    });
    expect(corp.statusCode).toBe(201);
    expect(corp.json().user).toMatchObject({ locationName: LOCATION_CORPORATE, locationPlantId: null });
    const none = await addUser(a.adminHeaders, a.customer.id, {
      email: email(),
      locationPlantId: null,
      locationName: LOCATION_UNASSIGNED,
    });
    expect(none.statusCode).toBe(201);
    expect(none.json().user).toMatchObject({ locationName: null, locationPlantId: null });
  });

  it("answers 409 'User with the email already exists' for a duplicate email, in any customer and case", async () => {
    for (const [headers, customerId, address] of [
      [a.adminHeaders, a.customer.id, a.user.email.toUpperCase()],
      [a.adminHeaders, a.customer.id, b.user.email],
    ] as const) {
      const res = await addUser(headers, customerId, {
        email: address,
        locationPlantId: null,
        locationName: null,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: USER_MESSAGES.exists });
    }
  });

  it("back office: an administrator adds to the own customer only; provider staff to any existing customer", async () => {
    const own = await call("POST", `/api/administration/customers/${a.customer.id}/user`, a.adminHeaders, {
      email: email(),
      locationPlantId: null,
      locationName: null,
    });
    expect(own.statusCode).toBe(201);

    const p = await createProviderStaff();
    const toB = await call("POST", `/api/administration/customers/${b.customer.id}/user`, p.headers, {
      email: email(),
      locationPlantId: b.plant.id,
      locationName: null,
    });
    expect(toB.statusCode).toBe(201);
    expect((await list(b.adminHeaders)).map((u) => u.id)).toContain(toB.json().user.id);

    const missing = await call(
      "POST",
      `/api/administration/customers/${crypto.randomUUID()}/user`,
      p.headers,
      { email: email(), locationPlantId: null, locationName: null },
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(USER_MESSAGES.customerNotFound);

    // The plain path adds to the customer the caller acts for, even for provider staff.
    const plain = await addUser(p.headers, b.customer.id, {
      email: email(),
      locationPlantId: null,
      locationName: null,
    });
    expect(plain.statusCode).toBe(404);
  });
});

describe("roles", () => {
  it("POST adds and PUT removes the administrator role at once; the user's session follows", async () => {
    const c = await createTenant(t.app, t.database.db);
    const body = { userId: c.user.id, role: "administrator", customerId: c.customer.id };
    expect((await call("GET", "/api/customer-users-for-user", c.userHeaders)).statusCode).toBe(403);

    expect((await call("POST", "/api/update-user-roles", c.adminHeaders, body)).statusCode).toBe(204);
    expect((await list(c.adminHeaders)).find((u) => u.id === c.user.id)?.role).toBe("administrator");
    expect((await call("GET", "/api/customer-users-for-user", c.userHeaders)).statusCode).toBe(200);
    // Adding twice is harmless.
    expect((await call("POST", "/api/update-user-roles", c.adminHeaders, body)).statusCode).toBe(204);

    expect((await call("PUT", "/api/update-user-roles", c.adminHeaders, body)).statusCode).toBe(204);
    expect((await list(c.adminHeaders)).find((u) => u.id === c.user.id)?.role).toBe("user");
    expect((await call("GET", "/api/customer-users-for-user", c.userHeaders)).statusCode).toBe(403);
  });

  it("refuses to remove the caller's own administrator role (403)", async () => {
    const c = await createTenant(t.app, t.database.db);
    const res = await call("PUT", "/api/update-user-roles", c.adminHeaders, {
      userId: c.admin.id,
      role: "administrator",
      customerId: c.customer.id,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(USER_MESSAGES.cannotChangeOwnRole);
    expect((await list(c.adminHeaders)).find((u) => u.id === c.admin.id)?.role).toBe("administrator");
  });

  it("POST /api/check-users-roles maps each of the customer's users to the role", async () => {
    const res = await call("POST", "/api/check-users-roles", a.adminHeaders, {
      userIds: [a.admin.id, a.user.id],
      role: "administrator",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ [a.admin.id]: true, [a.user.id]: false });
    const empty = await call("POST", "/api/check-users-roles", a.adminHeaders, {
      userIds: [],
      role: "administrator",
    });
    expect(empty.json()).toEqual({});
  });
});

describe("deletion", () => {
  it("is refused (403) with the user-deletion flag off and works with it on", async () => {
    const c = await createTenant(t.app, t.database.db);
    const body = { userId: c.user.id, customerId: c.customer.id };
    const off = await call("POST", "/api/users", c.adminHeaders, body);
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(USER_MESSAGES.deletionDisabled);
    expect((await list(c.adminHeaders)).map((u) => u.id)).toContain(c.user.id);

    expect((await setFlag(c.customer.id, "userDeletion", true)).statusCode).toBe(200);
    const on = await call("POST", "/api/users", c.adminHeaders, body);
    expect(on.statusCode).toBe(204);
    expect((await list(c.adminHeaders)).map((u) => u.id)).not.toContain(c.user.id);
    // The deleted user's session has ended with it.
    expect((await call("GET", "/api/auth/me", c.userHeaders)).statusCode).toBe(401);
    // Deleting again: the user is gone.
    expect((await call("POST", "/api/users", c.adminHeaders, body)).statusCode).toBe(404);
  });

  it("refuses to delete the caller's own account (403)", async () => {
    const c = await createTenant(t.app, t.database.db);
    await setFlag(c.customer.id, "userDeletion", true);
    const res = await call("POST", "/api/users", c.adminHeaders, {
      userId: c.admin.id,
      customerId: c.customer.id,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(USER_MESSAGES.cannotDeleteSelf);
  });
});

describe("location", () => {
  it("sets a plant, CORPORATE and UNASSIGNED (both null)", async () => {
    const c = await createTenant(t.app, t.database.db);
    const plant2 = await createPlant(t.database.db, c.customer.id);
    const patch = (body: unknown) => call("PATCH", `/api/users/${c.user.id}`, c.adminHeaders, body);
    const row = async () => (await list(c.adminHeaders)).find((u) => u.id === c.user.id);

    expect((await patch({ locationName: "ignored", locationPlantId: plant2.id })).statusCode).toBe(204);
    expect(await row()).toMatchObject({ locationName: plant2.name, locationPlantId: plant2.id });
    expect((await patch({ locationName: LOCATION_CORPORATE, locationPlantId: null })).statusCode).toBe(204);
    expect(await row()).toMatchObject({ locationName: LOCATION_CORPORATE, locationPlantId: null });
    expect((await patch({ locationName: null, locationPlantId: null })).statusCode).toBe(204);
    expect(await row()).toMatchObject({ locationName: null, locationPlantId: null });
    expect((await patch({ locationName: LOCATION_UNASSIGNED, locationPlantId: null })).statusCode).toBe(204);
    expect(await row()).toMatchObject({ locationName: null, locationPlantId: null });
  });

  it("the provider location: only provider staff assign it, and only they change a provider-staff row", async () => {
    const c = await createTenant(t.app, t.database.db);
    const provider = { locationName: LOCATION_PROVIDER, locationPlantId: null };

    // A customer's administrator may not assign it, neither when adding nor when editing.
    const add = await addUser(c.adminHeaders, c.customer.id, { email: email(), ...provider });
    expect(add.statusCode).toBe(403);
    expect(add.json().message).toBe(USER_MESSAGES.providerLocationOnly);
    const patch = await call("PATCH", `/api/users/${c.user.id}`, c.adminHeaders, provider);
    expect(patch.statusCode).toBe(403);
    expect((await list(c.adminHeaders)).find((u) => u.id === c.user.id)?.locationName).toBeNull();

    // Provider staff, acting for the customer, may.
    const p = await createProviderStaff();
    const sw = await call("POST", "/api/auth/switch-customer", p.headers, { customerId: c.customer.id });
    expect(sw.statusCode).toBe(200);
    const byStaff = await call("PATCH", `/api/users/${c.user.id}`, p.headers, provider);
    expect(byStaff.statusCode).toBe(204);
    const row = (await list(p.headers)).find((u) => u.id === c.user.id);
    // A customer's user at the provider location is not provider staff: that needs the provider's company.
    expect(row).toMatchObject({ locationName: LOCATION_PROVIDER, isProviderStaff: false });

    // In the provider's own company: an administrator who is not staff sees staff rows, read-only.
    const officeAdmin = await createUser(t.database.db, p.provider.id, {
      admin: true,
      locationName: LOCATION_CORPORATE,
    });
    const office = await signIn(t.app, officeAdmin.email);
    const rows = await list(office);
    expect(rows.find((u) => u.id === p.staff.id)).toMatchObject({
      isProviderStaff: true,
      locationName: LOCATION_PROVIDER,
    });
    const demote = await call("PATCH", `/api/users/${p.staff.id}`, office, {
      locationName: LOCATION_CORPORATE,
      locationPlantId: null,
    });
    expect(demote.statusCode).toBe(403);
    expect(demote.json().message).toBe(USER_MESSAGES.providerStaffLocation);
    expect((await list(office)).find((u) => u.id === p.staff.id)?.isProviderStaff).toBe(true);
  });
});
