import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonInSlices } from "./json-slices.js";
import { createSlicer } from "./slices.js";

/** What the sliced parser makes of a text, as JSON.parse would show it: the value, or "refused". */
async function sliced(text: string): Promise<unknown> {
  try {
    const parsed = await parseJsonInSlices(text, { slicer: createSlicer({ sliceMs: 0 }) });
    return parsed.kind === "array" ? parsed.elements.map((e) => e.value) : parsed.value;
  } catch (err) {
    expect(err).toBeInstanceOf(SyntaxError);
    return "refused";
  }
}
function whole(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return "refused";
  }
}

describe("parseJsonInSlices", () => {
  it("reads every JSON text as JSON.parse does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.json(), async (text) => {
        expect(await sliced(text)).toEqual(whole(text));
      }),
    );
  });

  it("reads arrays of records, with spaces anywhere and strings holding brackets, commas and escaped quotes", async () => {
    const value = fc.array(
      fc.record({
        partId: fc.string(),
        note: fc.constantFrom('a "quoted" ], text', "\\", "\\\\", 'ends with \\"', "[{,}]"),
        measurements: fc.dictionary(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true })),
      }),
    );
    await fc.assert(
      fc.asyncProperty(value, fc.constantFrom(0, 2), async (records, indent) => {
        const text = JSON.stringify(records, null, indent);
        expect(await sliced(text)).toEqual(whole(text));
      }),
    );
  });

  it("refuses what JSON.parse refuses", async () => {
    const broken = [
      "",
      " ",
      "[",
      "[1",
      "[1,",
      "[1,]",
      "[,1]",
      "[1 2]",
      "[1}",
      "[}",
      "[1]]",
      "[1] x",
      '["a]',
      '["a\\"]',
      '[{"a":1]',
      '[{"a":tru}]',
      "{not json",
    ];
    for (const text of broken) expect([text, await sliced(text)]).toEqual([text, "refused"]);
    // Any text made of JSON's punctuation, strings and spaces: the same answer as JSON.parse.
    const piece = fc.constantFrom("[", "]", "{", "}", ",", ":", '"a"', '"\\""', "1", " ", "\n", "true");
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), async (pieces) => {
        const text = pieces.join("");
        expect(await sliced(text)).toEqual(whole(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("gives each element's text as it was received", async () => {
    const text = ' [ {"a": 1} ,\n  "x,]" ,[2, 3]\t]';
    const parsed = await parseJsonInSlices(text);
    expect(parsed.kind).toBe("array");
    if (parsed.kind !== "array") return;
    expect(parsed.elements.map((e) => text.slice(e.start, e.end))).toEqual(['{"a": 1}', '"x,]"', "[2, 3]"]);
  });

  it("lets the event loop run between slices of a large array", async () => {
    const text = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i })));
    // Turns of the event loop counted by a callback that queues itself for the next one: a
    // parse that never yielded would finish in microtasks, before the first turn.
    let turns = 0;
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const slicer = createSlicer({ sliceMs: 0 });
    await parseJsonInSlices(text, { slicer });
    done = true;
    // A slice of 0 ms yields after every element: the event loop turned while the array was read.
    expect(turns).toBeGreaterThan(0);
  });
});
