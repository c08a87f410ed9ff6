import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError, apiStream, UNREADABLE_ANSWER } from "./client";

// apiStream reads an NDJSON answer however the network cuts it into chunks.

const NDJSON = "application/x-ndjson";
let answer: () => Response;
let accept: string | null;
const server = setupServer(
  http.post("*/api/stream", ({ request }) => {
    accept = request.headers.get("accept");
    return answer();
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A body sent as the given byte chunks. */
const chunked = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });

const read = async () => {
  const lines: unknown[] = [];
  const out = await apiStream(
    "POST",
    "/api/stream",
    { a: 1 },
    { accept: NDJSON, onLine: (l) => lines.push(l) },
  );
  return { out, lines };
};

describe("apiStream", () => {
  it("hands each line over once whole: lines and characters split across chunks, a last line without a newline", async () => {
    const bytes = new TextEncoder().encode('{"n":1,"t":"Zähler"}\n\n{"n":2}\r\n{"n":3}');
    // Cut inside the ä (two bytes) and inside the second line.
    const cutA = bytes.indexOf(0xc3) + 1;
    const cutB = cutA + 15;
    answer = () =>
      new HttpResponse(chunked([bytes.slice(0, cutA), bytes.slice(cutA, cutB), bytes.slice(cutB)]), {
        headers: { "content-type": NDJSON },
      });
    const { out, lines } = await read();
    expect(accept).toBe(NDJSON);
    expect(out).toEqual({ streamed: true });
    expect(lines).toEqual([{ n: 1, t: "Zähler" }, { n: 2 }, { n: 3 }]);
  });

  it("takes a plain JSON answer whole, and throws a refusal's message as ApiError", async () => {
    answer = () => HttpResponse.json({ ok: true });
    expect(await read()).toEqual({ out: { streamed: false, json: { ok: true } }, lines: [] });

    answer = () => HttpResponse.json({ message: "Too many records" }, { status: 400 });
    const err = await read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: "Too many records" });
  });

  it("throws on a line that is not JSON, and an error thrown by onLine ends the reading", async () => {
    answer = () =>
      new HttpResponse(chunked([new TextEncoder().encode('{"n":1}\nnot json\n{"n":2}\n')]), {
        headers: { "content-type": NDJSON },
      });
    const lines: unknown[] = [];
    const err = await apiStream(
      "POST",
      "/api/stream",
      {},
      { accept: NDJSON, onLine: (l) => lines.push(l) },
    ).catch((e: unknown) => e);
    expect(lines).toEqual([{ n: 1 }]);
    expect(err).toMatchObject({ name: "ApiError", message: UNREADABLE_ANSWER });

    answer = () =>
      new HttpResponse(chunked([new TextEncoder().encode('{"n":1}\n{"n":2}\n')]), {
        headers: { "content-type": NDJSON },
      });
    const seen: unknown[] = [];
    await expect(
      apiStream(
        "POST",
        "/api/stream",
        {},
        {
          accept: NDJSON,
          onLine: (l) => {
            seen.push(l);
            throw new Error("stop");
          },
        },
      ),
    ).rejects.toThrow("stop");
    expect(seen).toEqual([{ n: 1 }]);
  });
});
