import FFT from "fft.js";
import { StatsError } from "./statsError.js";

/**
 * A periodic component of a line's signal (a temperature cycle, a shift pattern): one sine the
 * data carries beside its noise (issue 29, docs/decisions/0276-periodic-component-from-200-values.md and the
 * records after it).
 *
 * An AR model of order ≤ 10 cannot hold a spectral line at 1/100 apart from frequency 0, so it
 * reads a slow cycle as strong dependence and puts a long window's VIF at its cap (19) where
 * whole periods average out of both means (about 0.67 for a sine of half the noise's variance).
 * The remedy here: find the strongest slow sinusoid by the periodogram, fit it by least squares,
 * keep it when the AR fit of what is left is far better than the AR fit of the values (a
 * likelihood ratio), and describe the series as the sine plus the
 * residuals' AR process (the autocorrelations of both, weighted by their shares of the variance).
 */

/** Fewer values than this are never searched: the monitors' smallest windows keep their AR fit. */
export const MIN_PERIODIC_RECORDS = 200;
/** Periods searched: from this many records … */
export const MIN_PERIOD = 10;
/** … to the values' count over this (at least three whole periods in the values). */
export const MIN_PERIODS_IN_VALUES = 3;
/**
 * Family-wise chance that independent or AR values show a component (at 1e-3, 1–1.5 % of AR
 * windows of 480 values showed one; at 1e-4 none of 4,400 of every family but the sines, which
 * it finds in 97–100 % of such windows).
 */
export const PERIODIC_ALPHA = 1e-4;

/**
 * The most signals the frequency search reads (evenly spread over a monitor's signals): the
 * periodogram of 100 signals cost 24 ms an evaluation; a cycle of the line shows in any 20.
 */
export const MAX_SEARCHED_SIGNALS = 20;
/**
 * A peak is tested only when the periodogram there, against the spectrum of the plain AR fit,
 * is at least this unlikely without a line (the largest of the band's Exp(1) ratios): the
 * likelihood ratio's second Burg fit then runs in about 5 % of windows without a cycle.
 */
export const PERIODIC_SCREEN_ALPHA = 0.05;

export interface PeriodicComponent {
  /** Radians a record. */
  readonly frequency: number;
  /** Records a period (2π / frequency). */
  readonly period: number;
  /** R of R cos(ωt − θ), in the values' units. */
  readonly amplitude: number;
  /** (R²/2) / (R²/2 + residual variance): the component's share of the values' variance. */
  readonly share: number;
  /** The residuals' variance (values less the sine and their mean, divisor m − 3). */
  readonly residualVariance: number;
  /** Each series' least-squares cos ωt and sin ωt coefficients (2 a series, in the values' units). */
  readonly coefficients: Float64Array;
  /** ρ(1 …) of the residuals' own AR fit (what is left beside the sine). */
  readonly residualAutocorrelations: Float64Array;
  /**
   * m ln(v₀/v₁)/2: half the likelihood ratio of the AR fits without and with the sine (v their
   * innovation variances), about Exp(1) at a frequency with no line.
   */
  readonly statistic: number;
  /** 1 − (1 − e^−statistic)^J over the J Fourier frequencies searched. */
  readonly pValue: number;
}

export interface PeriodicFit {
  /** The values less the fitted sine (and their mean): what the AR model describes. */
  readonly residuals: Float64Array;
  readonly frequency: number;
  readonly amplitude: number;
  /** Each series' cos ωt and sin ωt coefficients (2 a series). */
  readonly coefficients: Float64Array;
  /** The periodogram of the centred values at the grid's peak, averaged over the searched series. */
  readonly periodogram: number;
  /** The Fourier frequencies 2πj/m in the searched band. */
  readonly searched: number;
}

/** The band of frequencies searched for m values: [2π·MIN_PERIODS_IN_VALUES/m, 2π/MIN_PERIOD]. */
export function periodicBand(m: number): {
  readonly low: number;
  readonly high: number;
  readonly count: number;
} {
  const low = (2 * Math.PI * MIN_PERIODS_IN_VALUES) / m;
  const high = (2 * Math.PI) / MIN_PERIOD;
  const count = Math.max(0, Math.floor(m / MIN_PERIOD) - MIN_PERIODS_IN_VALUES + 1);
  return { low, high, count };
}

/** FFT instances and their output arrays by size: building one's tables costs more than a transform. */
const ffts = new Map<number, { readonly fft: FFT; readonly spectrum: number[] }>();
function fftOf(size: number): { readonly fft: FFT; readonly spectrum: number[] } {
  let entry = ffts.get(size);
  if (entry === undefined) {
    const fft = new FFT(size);
    entry = { fft, spectrum: fft.createComplexArray() as number[] };
    ffts.set(size, entry);
  }
  return entry;
}

/** The signals the frequency search reads: every one up to MAX_SEARCHED_SIGNALS, else ⌊i·count/20⌋ for i < 20. */
export function searchedSignals(count: number): number[] {
  if (count <= MAX_SEARCHED_SIGNALS) return Array.from({ length: count }, (_, j) => j);
  return Array.from({ length: MAX_SEARCHED_SIGNALS }, (_, i) =>
    Math.floor((i * count) / MAX_SEARCHED_SIGNALS),
  );
}

export interface PeriodicPeak {
  /** Radians a record. */
  readonly frequency: number;
  /** The periodogram at the grid's peak, averaged over the searched signals. */
  readonly periodogram: number;
  /** The searched signals' variance (divisor m), averaged: the periodogram's scale. */
  readonly variance: number;
  /** The Fourier frequencies 2πj/m in the searched band. */
  readonly searched: number;
}

/**
 * The strongest sinusoid's frequency in the periodic band of `count` series (signal-major, m
 * values each; at most MAX_SEARCHED_SIGNALS of them read, searchedSignals): the periodogram on the
 * grid 2πk/N (N the power of two ≥ 2m: half the Fourier spacing or finer) by one real FFT of each
 * zero-padded, centred series, its peak refined by a parabola through the log-power at the peak and
 * its two neighbours. Null when m is below MIN_PERIODIC_RECORDS.
 */
export function periodicPeak(columns: ArrayLike<number>, m: number, count = 1): PeriodicPeak | null {
  if (!Number.isInteger(m) || !Number.isInteger(count) || count < 1)
    throw new StatsError("INVALID_ARGUMENT", `m and count must be integers ≥ 1, got ${m} and ${count}`);
  if (columns.length < m * count)
    throw new StatsError("INVALID_ARGUMENT", `expected ${m * count} values, got ${columns.length}`);
  if (m < MIN_PERIODIC_RECORDS) return null;
  const band = periodicBand(m);
  const signals = searchedSignals(count);
  let size = 4;
  while (size < 2 * m) size *= 2;
  const step = (2 * Math.PI) / size;
  const { fft, spectrum } = fftOf(size);
  const padded = new Float64Array(size);
  const first = Math.ceil(band.low / step);
  const last = Math.floor(band.high / step);
  const power = new Float64Array(Math.max(0, last - first + 1));
  let variance = 0;
  for (const j of signals) {
    let sum = 0;
    for (let t = 0; t < m; t++) sum += columns[j * m + t] as number;
    const mu = sum / m;
    for (let t = 0; t < m; t++) {
      const v = (columns[j * m + t] as number) - mu;
      padded[t] = v;
      variance += v * v;
    }
    fft.realTransform(spectrum, padded);
    for (let k = first; k <= last; k++) {
      const re = spectrum[2 * k] as number;
      const im = spectrum[2 * k + 1] as number;
      power[k - first] = (power[k - first] as number) + (re * re + im * im) / (m * signals.length);
    }
  }
  let bestIndex = first;
  let bestValue = -1;
  for (let k = first; k <= last; k++) {
    const v = power[k - first] as number;
    if (v > bestValue) {
      bestValue = v;
      bestIndex = k;
    }
  }
  // The peak between grid points (exact for a Gaussian peak; within a few hundredths of a grid
  // step for a sine's). A golden-section search on the periodogram cost 24 passes over the values.
  let shift = 0;
  if (bestIndex > first && bestIndex < last) {
    const below = Math.log(power[bestIndex - 1 - first] as number);
    const at = Math.log(bestValue);
    const above = Math.log(power[bestIndex + 1 - first] as number);
    const curvature = below - 2 * at + above;
    if (curvature < 0) shift = Math.max(-0.5, Math.min(0.5, (0.5 * (below - above)) / curvature));
  }
  return {
    frequency: (bestIndex + shift) * step,
    periodogram: bestValue,
    variance: variance / (m * signals.length),
    searched: band.count,
  };
}

/**
 * Least squares of each series on [1, cos ωt, sin ωt] at one frequency (a sine over a fraction of
 * a period is not orthogonal to the constant): the residuals, each series' cos and sin
 * coefficients, and the root mean square of their amplitudes.
 */
export function fitSine(
  columns: ArrayLike<number>,
  m: number,
  count: number,
  frequency: number,
): { readonly residuals: Float64Array; readonly coefficients: Float64Array; readonly amplitude: number } {
  const cos = new Float64Array(m);
  const sin = new Float64Array(m);
  for (let t = 0; t < m; t++) {
    cos[t] = Math.cos(frequency * t);
    sin[t] = Math.sin(frequency * t);
  }
  let scc = 0;
  let sss = 0;
  let scs = 0;
  let sc = 0;
  let ss = 0;
  for (let t = 0; t < m; t++) {
    const c = cos[t] as number;
    const s = sin[t] as number;
    scc += c * c;
    sss += s * s;
    scs += c * s;
    sc += c;
    ss += s;
  }
  const gram = [m, sc, ss, sc, scc, scs, ss, scs, sss];
  const residuals = new Float64Array(m * count);
  const coefficients = new Float64Array(2 * count);
  let amplitudeSquares = 0;
  for (let j = 0; j < count; j++) {
    const o = j * m;
    let sum = 0;
    for (let t = 0; t < m; t++) sum += columns[o + t] as number;
    const mu = sum / m;
    let y0 = 0;
    let yc = 0;
    let ys = 0;
    for (let t = 0; t < m; t++) {
      const y = (columns[o + t] as number) - mu;
      y0 += y;
      yc += y * (cos[t] as number);
      ys += y * (sin[t] as number);
    }
    const [c0, cc, cs] = solve3(gram, [y0, yc, ys]);
    amplitudeSquares += cc * cc + cs * cs;
    coefficients[2 * j] = cc;
    coefficients[2 * j + 1] = cs;
    for (let t = 0; t < m; t++)
      residuals[o + t] =
        (columns[o + t] as number) - mu - c0 - cc * (cos[t] as number) - cs * (sin[t] as number);
  }
  return { residuals, coefficients, amplitude: Math.sqrt(amplitudeSquares / count) };
}

/**
 * The strongest sinusoid of `count` series (signal-major, m values each), fitted with one
 * frequency for all and each series' own amplitude and phase: periodicPeak, then fitSine. Null
 * when m is below MIN_PERIODIC_RECORDS.
 */
export function fitPeriodicComponent(columns: ArrayLike<number>, m: number, count = 1): PeriodicFit | null {
  const peak = periodicPeak(columns, m, count);
  if (peak === null) return null;
  const sine = fitSine(columns, m, count, peak.frequency);
  return {
    residuals: sine.residuals,
    frequency: peak.frequency,
    amplitude: sine.amplitude,
    coefficients: sine.coefficients,
    periodogram: peak.periodogram,
    searched: peak.searched,
  };
}

function solve3(a: readonly number[], b: readonly number[]): [number, number, number] {
  const m = a.slice();
  const x = b.slice();
  for (let c = 0; c < 3; c++) {
    let pivot = c;
    for (let r = c + 1; r < 3; r++)
      if (Math.abs(m[r * 3 + c] as number) > Math.abs(m[pivot * 3 + c] as number)) pivot = r;
    if (pivot !== c) {
      for (let k = 0; k < 3; k++) {
        const t = m[c * 3 + k] as number;
        m[c * 3 + k] = m[pivot * 3 + k] as number;
        m[pivot * 3 + k] = t;
      }
      const t = x[c] as number;
      x[c] = x[pivot] as number;
      x[pivot] = t;
    }
    const pv = m[c * 3 + c] as number;
    if (Math.abs(pv) < 1e-300) throw new StatsError("INVALID_ARGUMENT", "the sine's design is singular");
    for (let r = c + 1; r < 3; r++) {
      const f = (m[r * 3 + c] as number) / pv;
      for (let k = c; k < 3; k++) m[r * 3 + k] = (m[r * 3 + k] as number) - f * (m[c * 3 + k] as number);
      x[r] = (x[r] as number) - f * (x[c] as number);
    }
  }
  const out: [number, number, number] = [0, 0, 0];
  for (let r = 2; r >= 0; r--) {
    let s = x[r] as number;
    for (let k = r + 1; k < 3; k++) s -= (m[r * 3 + k] as number) * (out[k] as number);
    out[r] = s / (m[r * 3 + r] as number);
  }
  return out;
}

/**
 * The AR spectral density at ω over the variance, for coefficients φ with innovation ratio v
 * (innovation variance over variance): v / |1 − Σ φₖ e^{−ikω}|² (1 for independent values).
 */
export function arSpectrumRatio(
  coefficients: ArrayLike<number>,
  innovationRatio: number,
  omega: number,
): number {
  let re = 1;
  let im = 0;
  for (let k = 0; k < coefficients.length; k++) {
    const phi = coefficients[k] as number;
    re -= phi * Math.cos((k + 1) * omega);
    im += phi * Math.sin((k + 1) * omega);
  }
  return innovationRatio / (re * re + im * im);
}

/** 1 − (1 − e^−s)^J: the chance that the largest of J Exp(1) periodogram ratios reaches s. */
export function periodicPValue(statistic: number, searched: number): number {
  if (!(statistic > 0)) return 1;
  return -Math.expm1(searched * Math.log1p(-Math.exp(-statistic)));
}
