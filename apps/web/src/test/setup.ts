import { ReadableStream, TransformStream, WritableStream } from "node:stream/web";
// jest-dom's matchers (toBeInTheDocument, toHaveTextContent…) on vitest's expect, with their types.
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// The web streams Node has and a test context may lack (msw's SSE support takes WritableStream at
// import).
for (const [name, value] of Object.entries({ ReadableStream, TransformStream, WritableStream })) {
  if (!(name in globalThis))
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}

// Component tests wait for what the user would see (findBy…, waitFor). On a busy CI machine the
// app's chain of queries can take seconds: wait up to 10 s for a condition instead of RTL's 1 s.
// A test still passes the moment the condition holds; this is a bound, not a delay.
configure({ asyncUtilTimeout: 10_000 });

// Every test unmounts what it rendered (RTL cleans up by itself only with vitest's globals): a
// component left mounted keeps its timers (a snackbar's transition), which fire after the file's
// DOM is gone ("window is not defined").
afterEach(() => cleanup());
