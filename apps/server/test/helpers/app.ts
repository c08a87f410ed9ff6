import { loadConfig } from "../../src/config.js";
import type { Database } from "../../src/db/client.js";
import { type App, type AppSettings, buildApp } from "../../src/http/app.js";
import { startSessionInvalidation } from "../../src/modules/auth/session-invalidation.js";
import { createServices, type Services, type ServicesOptions } from "../../src/services.js";
import { createTestDatabase } from "./db.js";

export type TestContext = { app: App; database: Database; services: Services; now: { value: Date } };

/**
 * The real app on a fresh database, with a clock tests can move, and settings as main.ts passes
 * them (the session cache following the database's notifications included): loadConfig's defaults (rate limits included) unless a test gives its own; a built web app
 * folder (webDist) when a test serves pages; the database of another test app when given.
 */
export async function createTestApp(
  settings: Pick<ServicesOptions, "mvdQueryMaxRecordCount" | "signinFailuresPerAddress" | "stats"> &
    Partial<AppSettings> & { webDist?: string; database?: Database } = {},
): Promise<TestContext> {
  const config = loadConfig({}, []);
  // Another app on a test's database (closeTestApp closes that database too: close it once).
  const database = settings.database ?? (await createTestDatabase());
  const now = { value: new Date() };
  const services = createServices({
    db: database.db,
    publicUrl: "http://localhost:8080",
    now: () => now.value,
    mvdQueryMaxRecordCount: settings.mvdQueryMaxRecordCount,
    signinFailuresPerAddress: settings.signinFailuresPerAddress ?? config.signinFailuresPerAddress,
    stats: settings.stats,
  });
  // As main.ts runs the API: sessions cached while the invalidation channel is heard.
  await startSessionInvalidation(database, services.auth);
  const app = await buildApp({
    services,
    cookieSecure: "auto",
    webDist: settings.webDist,
    settings: {
      publicUrl: "http://localhost:8080",
      trustProxy: settings.trustProxy,
      rateLimitPerMinute: settings.rateLimitPerMinute,
      ingestRateLimitPerMinute: settings.ingestRateLimitPerMinute,
      metricsToken: settings.metricsToken,
    },
  });
  await app.ready();
  return { app, database, services, now };
}

export async function closeTestApp(t: TestContext | undefined) {
  if (!t) return;
  await t.app.close();
  await t.database.close();
}
