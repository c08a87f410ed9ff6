import { describe, expect, it } from "vitest";
import { scratchBuffer } from "./scratch.js";

describe("scratchBuffer", () => {
  it("hands out views of the requested length, reusing memory per slot", () => {
    const a = scratchBuffer(90, 8);
    a.fill(3);
    const b = scratchBuffer(90, 4);
    expect(b.length).toBe(4);
    // Same memory: the contents are whatever the last user left.
    expect(Array.from(b)).toEqual([3, 3, 3, 3]);
    expect(scratchBuffer(91, 4).buffer).not.toBe(b.buffer);
    // Growing replaces the buffer.
    expect(scratchBuffer(90, 16).length).toBe(16);
  });
});
