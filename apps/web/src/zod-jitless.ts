import { z } from "zod";

// The Content-Security-Policy has no 'unsafe-eval': zod must not try to compile its parsers with
// new Function (it would fall back, but each try is a CSP violation). Imported first by main.tsx,
// before any schema is built.
z.config({ jitless: true });
