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
