import { z } from "zod";

// In a browser zod must not compile its parsers with new Function: the web app's
// Content-Security-Policy has no 'unsafe-eval', so each try is a CSP violation (zod then falls
// back). zod decides when a schema is built, so this runs before any contract builds one: it is
// index.ts's first export. The server keeps the compiled parsers (ingest validates thousands of
// records a second).
if ((globalThis as { document?: unknown }).document !== undefined) z.config({ jitless: true });
