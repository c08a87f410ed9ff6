// In a browser zod must not compile its parsers with new Function: the web app's
// Content-Security-Policy has no 'unsafe-eval', so each try is a CSP violation (zod then falls
// back). zod decides when a schema is built, so this runs before any contract builds one: it is
// index.ts's first export, and the web app's entry imports it first. The server keeps the compiled
// parsers (ingest validates thousands of records a second).
//
// It sets the option on zod's global configuration object (`globalThis.__zod_globalConfig`, which
// zod's core creates only if it is not there yet, and which `z.config()` returns and changes)
// rather than calling `z.config`: importing zod here put a part of zod's core (≈ 6 kB gzip) into
// the web app's entry, so into every page, also those that never build a schema (issue #17).
// zod-setup.test.ts checks that zod sees it.
const g = globalThis as { document?: unknown; __zod_globalConfig?: { jitless?: boolean } };
if (g.document !== undefined) {
  g.__zod_globalConfig ??= {};
  g.__zod_globalConfig.jitless = true;
}

// A module (its only work is the statement above).
export {};
