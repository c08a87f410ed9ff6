import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Two projects: "unit" needs nothing but Node; "service" runs services and HTTP routes against a
// real database (PGlite in memory, or PostgreSQL when DATABASE_URL is set).
export default defineConfig({
  test: {
    // One worker a core (vitest's default leaves one core out: on 2 cores one file at a time, and
    // many service tests mostly wait on child processes, brokers and timers).
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/server/src/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "web",
          include: ["apps/web/src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          // Each file in a VM context of one thread's jsdom instead of a fresh process and jsdom:
          // the web project ran in 103 s instead of 195 s (quiet machine). Objects made by
          // modules outside the context (msw's request.json()) are of another realm, which
          // toMatchObject tells apart: the tests parse bodies themselves (JSON.parse).
          pool: "vmThreads",
          setupFiles: ["apps/web/src/test/setup.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "service",
          include: ["apps/server/test/**/*.test.ts"],
          globalSetup: ["apps/server/test/global-setup.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
