import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, signIn, signInThroughForm, test } from "./fixtures";

// README "Security": the headers every answer carries, and what they and the cross-origin
// refusal stop a browser from doing.

test("the app carries a CSP that forbids framing and X-Frame-Options DENY, and works under it", async ({
  page,
}) => {
  // Every CSP violation the pages cause, beside the console guard of fixtures.ts.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const res = await page.goto("/login");
  const headers = res?.headers() ?? {};
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("script-src 'self'");
  expect(headers["x-frame-options"]).toBe("DENY");

  await signInThroughForm(page, "admin");
  // The pages with the most styling: line overview (charts), the monitor form, settings grids.
  const plants = await (await page.request.get("/api/plants")).json();
  const lines = await (await page.request.get(`/api/plants/${plants[0].id}/lines`)).json();
  await page.goto(`/lines/${lines[0].id}`);
  await expect(page.getByRole("link", { name: "New MVD monitor" })).toBeVisible();
  await page.getByRole("link", { name: "New MVD monitor" }).click();
  await expect(page.getByRole("tab", { name: "Data Filters", selected: true })).toBeVisible();
  await page.getByRole("tab", { name: "Signals" }).click();
  await expect(page.getByLabel("Search signals")).toBeVisible();
  await page.goto("/settings?section=USER_MANAGEMENT");
  await expect(page.getByText(/Total users: \d+/)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
    [],
  );
});

test.describe("framing", () => {
  test.use({ allowedConsoleErrors: [/frame-ancestors 'none'/] });

  test("another page cannot frame the app", async ({ page, baseURL }) => {
    const refused = page.waitForEvent("console", (m) => /frame-ancestors 'none'/.test(m.text()));
    await page.setContent(`<iframe title="app" src="${baseURL}/login"></iframe>`);
    await refused;
    await expect(page.frameLocator("iframe").getByLabel("Email")).toHaveCount(0);
  });
});

// The browser may not show the other page the answer either (Cross-Origin-Resource-Policy).
test.describe("cross-origin requests", () => {
  test.use({ allowedConsoleErrors: [/ERR_BLOCKED_BY_RESPONSE/] });

  test("a page of another origin on the same site cannot sign the user out with a bodiless POST", async ({
    page,
    baseURL,
  }) => {
    await signIn(page, "user");
    // Another port of the same host: another origin, but the same site, so the browser sends the
    // SameSite=Lax session cookie along. A page there, served by the test itself.
    const app = new URL(baseURL ?? "");
    const attacker = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>attack</title>");
    });
    await new Promise<void>((resolve) => attacker.listen(0, app.hostname, resolve));
    try {
      await page.goto(`http://${app.hostname}:${(attacker.address() as AddressInfo).port}/`);
      await page.evaluate(async (target) => {
        await fetch(`${target}/api/auth/logout`, {
          method: "POST",
          mode: "no-cors",
          credentials: "include",
        }).catch(() => undefined);
      }, app.origin);
    } finally {
      attacker.close();
    }
    // The session is still there.
    const me = await page.request.get(`${app.origin}/api/auth/me`);
    expect(me.status()).toBe(200);
  });
});
