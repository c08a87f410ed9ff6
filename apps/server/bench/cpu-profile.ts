// Reads a V8 CPU profile (node --cpu-prof) of the server's main thread and says what held it:
// the share of each time window it was busy, the functions that took that time, and the longest
// stretches without a single idle sample, with the application frames on their stacks. Used by
// stall.bench.ts (BENCH_CPU_PROFILE).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
type Profile = {
  nodes: ProfileNode[];
  /** Microseconds, CLOCK_MONOTONIC (the same clock as process.hrtime). */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** A time window in microseconds of CLOCK_MONOTONIC (process.hrtime.bigint() / 1000n). */
export type ProfileWindow = { name: string; fromUs: number; toUs: number };

/** The main thread's profile in a --cpu-prof-dir folder: the one of `pid`, thread 0. */
export function mainThreadProfile(dir: string, pid: number): string | undefined {
  const file = readdirSync(dir).find((f) => f.includes(`.${pid}.0.`) && f.endsWith(".cpuprofile"));
  return file ? path.join(dir, file) : undefined;
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

function frameName(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const name = functionName || "(anonymous)";
  if (!url) return name;
  const file = url.replace(/^file:\/\//, "").replace(`${root}/`, "");
  return `${name} ${file}:${lineNumber + 1}`;
}

/** Frames of our own code (not node_modules, not Node's internals). */
const isAppFrame = (n: ProfileNode) =>
  /\/(apps|packages)\//.test(n.callFrame.url) && !n.callFrame.url.includes("node_modules");

const IDLE = new Set(["(idle)"]);

export function summarizeProfile(file: string, windows: ProfileWindow[], opts: { top?: number } = {}) {
  const top = opts.top ?? 12;
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number): ProfileNode[] => {
    const out: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node) out.push(node);
    }
    return out; // leaf first
  };
  // Sample i covers [t_i, t_{i+1}); its time is the next delta (the last one gets the mean).
  const times: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) {
    t += d;
    times.push(t);
  }
  const lines: string[] = [];
  for (const w of windows) {
    const self = new Map<string, number>();
    const inclusiveApp = new Map<string, number>();
    let busy = 0;
    let total = 0;
    // Stretches of consecutive busy samples (no idle one between).
    type Stretch = { from: number; to: number; samples: number[] };
    const stretches: Stretch[] = [];
    let open: Stretch | undefined;
    for (let i = 0; i < p.samples.length; i++) {
      const at = times[i] as number;
      if (at < w.fromUs || at >= w.toUs) continue;
      const dur = (times[i + 1] ?? at + 1000) - at;
      const node = byId.get(p.samples[i] as number);
      if (!node) continue;
      total += dur;
      if (IDLE.has(node.callFrame.functionName)) {
        if (open) stretches.push(open);
        open = undefined;
        continue;
      }
      busy += dur;
      const name = frameName(node);
      self.set(name, (self.get(name) ?? 0) + dur);
      const seen = new Set<string>();
      for (const f of stackOf(node.id)) {
        if (!isAppFrame(f)) continue;
        const fn = frameName(f);
        if (seen.has(fn)) continue;
        seen.add(fn);
        inclusiveApp.set(fn, (inclusiveApp.get(fn) ?? 0) + dur);
      }
      open ??= { from: at, to: at, samples: [] };
      open.to = at + dur;
      open.samples.push(i);
    }
    if (open) stretches.push(open);
    const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;
    lines.push(
      `main thread, ${w.name} (${((w.toUs - w.fromUs) / 1e6).toFixed(1)} s): busy ${ms(busy)} of ${ms(total)} sampled (${total > 0 ? ((busy / total) * 100).toFixed(0) : "?"} %)`,
    );
    const list = (m: Map<string, number>, n: number) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, us]) => `      ${ms(us).padStart(8)}  ${name}`);
    lines.push("    self time, top functions:", ...list(self, top));
    lines.push("    our code on the stack (inclusive):", ...list(inclusiveApp, top));
    stretches.sort((a, b) => b.to - b.from - (a.to - a.from));
    lines.push("    longest busy stretches (no idle sample between):");
    for (const s of stretches.slice(0, 5)) {
      const sSelf = new Map<string, number>();
      const sApp = new Map<string, number>();
      for (const i of s.samples) {
        const at = times[i] as number;
        const dur = (times[i + 1] ?? at + 1000) - at;
        const node = byId.get(p.samples[i] as number) as ProfileNode;
        const name = frameName(node);
        sSelf.set(name, (sSelf.get(name) ?? 0) + dur);
        const seen = new Set<string>();
        for (const f of stackOf(node.id)) {
          if (!isAppFrame(f)) continue;
          const fn = frameName(f);
          if (seen.has(fn)) continue;
          seen.add(fn);
          sApp.set(fn, (sApp.get(fn) ?? 0) + dur);
        }
      }
      lines.push(
        `      ${ms(s.to - s.from)} from +${((s.from - w.fromUs) / 1e6).toFixed(1)} s: self ${list(sSelf, 3)
          .map((l) => l.trim())
          .join("; ")}`,
      );
      lines.push(
        `        our code: ${list(sApp, 4)
          .map((l) => l.trim())
          .join("; ")}`,
      );
    }
  }
  return lines;
}
