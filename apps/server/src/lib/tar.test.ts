import { describe, expect, it } from "vitest";
import { readTar, type TarHeader, TarReader, writeTar } from "./tar.js";

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251);
const entries = [
  { name: "/PG_VERSION", type: "file" as const, mode: 0o600, data: new TextEncoder().encode("17\n") },
  { name: "/base", type: "directory" as const, mode: 0o700, data: new Uint8Array(0) },
  { name: "/base/1/112", type: "file" as const, mode: 0o600, data: bytes(8192, 1) },
  { name: "/empty", type: "file" as const, mode: 0o600, data: new Uint8Array(0) },
  { name: `/${"d".repeat(90)}/${"f".repeat(60)}`, type: "file" as const, mode: 0o600, data: bytes(513, 2) },
];
const tarball = () => Buffer.concat([...writeTar(entries, 0)]);

describe("tar", () => {
  it("reads back what it writes, whole and in chunks of any size", () => {
    expect(readTar(tarball()).map((e) => [e.name, e.type, e.mode, [...e.data]])).toEqual(
      entries.map((e) => [e.name, e.type, e.mode, [...e.data]]),
    );
    for (const size of [1, 7, 512, 1000]) {
      const seen: { h: TarHeader; data: number[] }[] = [];
      const reader = new TarReader({
        entry: (h) => seen.push({ h, data: [] }),
        data: (_h, chunk) => seen.at(-1)?.data.push(...chunk),
      });
      const all = tarball();
      for (let at = 0; at < all.length; at += size) reader.write(all.subarray(at, at + size));
      reader.finish();
      expect(seen.map((s) => [s.h.name, s.data])).toEqual(entries.map((e) => [e.name, [...e.data]]));
    }
  });

  it("refuses a damaged header, a cut-short archive and one without its end marker", () => {
    const damaged = tarball();
    damaged[10] = (damaged[10] ?? 0) ^ 1;
    expect(() => readTar(damaged)).toThrow(/checksum/);
    expect(() => new TarReader({}).write(damaged)).toThrow(/checksum/);
    const cut = tarball().subarray(0, 512 * 4);
    expect(() => readTar(cut)).toThrow(/cut short|end marker/);
    const reader = new TarReader({});
    reader.write(cut);
    expect(() => reader.finish()).toThrow(/cut short|end marker/);
  });
});
