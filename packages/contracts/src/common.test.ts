import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { zString, zText } from "./common.js";
import { isStorableText, TEXT_MESSAGES, toStorableText } from "./common-texts.js";

describe("text the database can hold", () => {
  it("refuses NUL and unpaired surrogates, and takes every other character", () => {
    expect(isStorableText("Torque — 12,5 Nm 🔧")).toBe(true);
    expect(isStorableText("A\u0000B")).toBe(false);
    expect(isStorableText("\uD800")).toBe(false);
    expect(isStorableText("x\uDFFFy")).toBe(false);
    expect(isStorableText("\uDFFF\uD800")).toBe(false);
  });

  it("makes a sample storable: NUL as the text \\u0000, an unpaired surrogate as U+FFFD, pairs kept", () => {
    expect(toStorableText("A\u0000B\uD800🔧")).toBe("A\\u0000B\uFFFD🔧");
    expect(isStorableText(toStorableText("\u0000\uDC00\uD83D"))).toBe(true);
  });

  it("zString and zText answer with the field's message", () => {
    expect(zString().safeParse("a\u0000").error?.issues[0]?.message).toBe(TEXT_MESSAGES.unstorable);
    expect(zText(10).safeParse(" a\uD800 ").error?.issues[0]?.message).toBe(TEXT_MESSAGES.unstorable);
    expect(zText(10).parse(" ok ")).toBe("ok");
  });

  it("is the only way contracts declare a string", () => {
    const dir = fileURLToPath(new URL(".", import.meta.url));
    const offenders = readdirSync(dir)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "common.ts")
      .filter((f) => /\bz\s*\.\s*string\s*\(/.test(readFileSync(`${dir}/${f}`, "utf8")));
    expect(offenders).toEqual([]);
  });
});
