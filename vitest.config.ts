import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/** Service test files that use vi.mock: they run isolated (project "service-mocking"). */
const SERVICE_MOCKING = ["apps/server/test/http/auth.limits.test.ts"];

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
          exclude: SERVICE_MOCKING,
          globalSetup: ["apps/server/test/global-setup.ts"],
          environment: "node",
          // A guard against a hang, not a measure: at load 17 (two benchmarks and a helper beside
          // the suite) a CAP run-rule evaluation and a bounded record read took over 30 s.
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // The files of a worker share its modules instead of importing the server anew each:
          // the service tests' import time went from about 174 s to 13 s. Each file still opens its
          // own database and app; the server keeps its state in each app's closures (the one
          // module-level object, the default statistics pool, is shared on purpose).
          isolate: false,
        },
      },
      {
        test: {
          // Files that replace a server module (vi.mock) need modules of their own.
          name: "service-mocking",
          include: SERVICE_MOCKING,
          globalSetup: ["apps/server/test/global-setup.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
