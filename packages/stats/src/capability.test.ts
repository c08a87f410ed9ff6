import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectRelativelyClose, vectors } from "../test/referenceVectors.js";
import { capability, capabilityIndices } from "./capability.js";
import { minitabCapabilityIntervals } from "./capabilityIntervals.js";

function expectNullableClose(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else expectRelativelyClose(actual as number, expected);
}

describe("capability", () => {
  it.each(vectors.capability.map((c) => [c.lsl, c.usl, c] as const))(
    "matches the reference for LSL %s, USL %s",
    (_, __, c) => {
      const result = capability(c.values, { lsl: c.lsl, usl: c.usl });
      const e = c.expected;
      expectRelativelyClose(result.mean, e.mean);
      expectRelativelyClose(result.sigmaWithin, e.sigmaWithin);
      expectRelativelyClose(result.sigmaOverall, e.sigmaOverall);
      expectNullableClose(result.cp, e.cp);
      expectRelativelyClose(result.cpk, e.cpk);
      expectNullableClose(result.pp, e.pp);
      expectRelativelyClose(result.ppk, e.ppk);
    },
  );

  it("returns null, not NaN, for Cp and Pp and the missing side when one-sided", () => {
    const result = capability([1, 2, 3, 2, 1], { lsl: null, usl: 5 });
    expect(result.cp).toBeNull();
    expect(result.pp).toBeNull();
    expect(result.cpl).toBeNull();
    expect(result.ppl).toBeNull();
    expect(result.cpk).toBe(result.cpu);
    expect(result.ppk).toBe(result.ppu);
  });

  it("matches R qcc's published values to the file's tolerance (σ within = R̄/d₂, d₂(4) = 2.059)", () => {
    const q = vectors.capabilityQcc;
    const all = q.subgroups.flat();
    const mean = all.reduce((a, b) => a + b, 0) / all.length;
    const sigmaOverall = Math.sqrt(all.reduce((a, b) => a + (b - mean) ** 2, 0) / (all.length - 1));
    const rBar = q.subgroups.reduce((a, g) => a + Math.max(...g) - Math.min(...g), 0) / q.subgroups.length;
    const result = capabilityIndices(mean, rBar / 2.059, sigmaOverall, { lsl: q.lsl, usl: q.usl });
    for (const key of ["cp", "cpl", "cpu", "cpk", "pp", "ppl", "ppu", "ppk"] as const) {
      expectRelativelyClose(result[key] as number, q.expected[key], q.tolerance);
    }
  });

  it("is unchanged when the same constant is added to values and limits", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 3, maxLength: 60 }),
        fc.double({ min: -1e3, max: 1e3, noNaN: true }),
        fc.boolean(),
        (values, shift, isTwoSided) => {
          // Values must vary step to step (σ > 0) for the indices to exist.
          fc.pre(values.some((v, i) => i > 0 && Math.abs(v - (values[i - 1] as number)) > 1e-3));
          const limits = { lsl: isTwoSided ? -20 : null, usl: 20 };
          const base = capability(values, limits);
          const moved = capability(
            values.map((v) => v + shift),
            { lsl: limits.lsl === null ? null : limits.lsl + shift, usl: limits.usl + shift },
          );
          for (const key of ["cpk", "ppk", "cp", "pp", "sigmaWithin", "sigmaOverall"] as const) {
            const a = base[key];
            const b = moved[key];
            if (a === null) expect(b).toBeNull();
            else expect(Math.abs((b as number) - a)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(a)));
          }
          expect(moved.mean - shift).toBeCloseTo(base.mean, 6);
        },
      ),
    );
  });

  it("refuses what has no answer: no limit, LSL ≥ USL, a constant series, fewer than 2 values", () => {
    expect(() => capability([1, 2, 3], { lsl: null, usl: null })).toThrow(/at least one spec limit/);
    expect(() => capability([1, 2, 3], { lsl: 5, usl: 5 })).toThrow(/LSL must be < USL/);
    expect(() => capability([2, 2, 2], { lsl: 1, usl: 3 })).toThrow(/constant signal/);
    expect(() => capability([2], { lsl: 1, usl: 3 })).toThrow(
      expect.objectContaining({ code: "TOO_FEW_VALUES" }),
    );
    expect(() => capability([], { lsl: 1, usl: 3 })).toThrow(
      expect.objectContaining({ code: "EMPTY_INPUT" }),
    );
    expect(() => capability([1, Number.NaN], { lsl: 1, usl: 3 })).toThrow(
      expect.objectContaining({ code: "NON_FINITE" }),
    );
  });
});

describe("minitabCapabilityIntervals", () => {
  it("matches Minitab's normal approximations (SciPy chi2/norm values, n = 50)", () => {
    // scipy: 1.2·√(chi2.ppf(0.025, 49)/49) …; 1.0 ∓ norm.ppf(0.975)·√(1/450 + 1/98)
    const i = minitabCapabilityIntervals({ cp: 1.2, cpk: 1.0, pp: 1.1, ppk: 0.9 }, 50);
    expect(i.cp?.[0]).toBeCloseTo(0.9629787937801214, 6);
    expect(i.cp?.[1]).toBeCloseTo(1.4365511103210378, 6);
    expect(i.pp?.[0]).toBeCloseTo(0.8827305609651114, 6);
    expect(i.pp?.[1]).toBeCloseTo(1.3168385177942847, 6);
    expect(i.cpk[0]).toBeCloseTo(0.7815162830965747, 9);
    expect(i.cpk[1]).toBeCloseTo(1.2184837169034253, 9);
    expect(i.ppk[0]).toBeCloseTo(0.6992827653963994, 9);
    expect(i.ppk[1]).toBeCloseTo(1.1007172346036007, 9);
  });
  it("has no Cp or Pp interval for a one-sided process, and needs n ≥ 2", () => {
    const i = minitabCapabilityIntervals({ cp: null, cpk: 1.0, pp: null, ppk: 0.9 }, 50);
    expect(i.cp).toBeNull();
    expect(i.pp).toBeNull();
    expect(() => minitabCapabilityIntervals({ cp: 1, cpk: 1, pp: 1, ppk: 1 }, 1)).toThrow();
  });
});
