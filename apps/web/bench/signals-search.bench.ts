// npm run bench:signals — the Signals tab's search over a line with 5,000 active signals on 100
// stations and 50 signal groups: the work one keystroke costs (search the prepared keys, flatten the
// matching rows the virtual list draws) against the 100 ms the tab allows a keystroke, and the
// one-off cost of preparing the search keys when the line's signals load. The slowest keystrokes
// follow the machine's load (another process, a garbage collection), hence the load average printed.
import { availableParallelism, loadavg } from "node:os";
import {
  buildManagementIndex,
  flattenManagementTree,
  searchManagementTree,
} from "../src/features/settings/signals/signal-management.tree";
import {
  buildSignalTreeIndex,
  flattenSignalTree,
  searchSignalTree,
} from "../src/features/signals/signal-tree";
import { buildGroup, buildLargeLine, fixtureId } from "../src/features/signals/signal-tree.fixtures";

const SIGNALS = 5000;
const STATIONS = 100;
const TARGET_MS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

const stations = buildLargeLine(SIGNALS, STATIONS);
const measurementIds = stations.flatMap((s) =>
  s.signals.filter((x) => x.entityType === "MEASUREMENT").map((x) => x.id),
);
const groups = Array.from({ length: 50 }, (_, g) =>
  buildGroup(fixtureId(3, g), `Group ${g + 1}`, measurementIds.slice(g * 20, g * 20 + 20)),
);

/** What a user types: words letter by letter, a correction, a clear, a station code. */
function keystrokes(): string[] {
  const out: string[] = [];
  const type = (from: string, word: string) => {
    for (let i = 1; i <= word.length; i++) out.push(from + word.slice(0, i));
    return from + word;
  };
  const backspace = (text: string, n: number) => {
    let t = text;
    for (let i = 0; i < n && t.length > 0; i++) {
      t = t.slice(0, -1);
      out.push(t);
    }
    return t;
  };
  let t = type("", "torque_4");
  t = backspace(t, 2);
  t = type(t, "_12");
  t = backspace(t, t.length);
  t = type(t, "leak rate 3");
  t = backspace(t, t.length);
  t = type(t, "OP350");
  t = backspace(t, t.length);
  type(t, "part_attribute");
  return out;
}

const time = (fn: () => void) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(2));

const builds: number[] = [];
let index = buildSignalTreeIndex(stations, groups);
for (let i = 0; i < 20; i++)
  builds.push(
    time(() => {
      index = buildSignalTreeIndex(stations, groups);
    }),
  );

const typed = keystrokes();
const noneToggled = new Set<string>();
let rows = 0;
const runSequence = () => {
  for (const q of typed) rows += flattenSignalTree(index, searchSignalTree(index, q), noneToggled).length;
};
for (let i = 0; i < 10; i++) runSequence(); // warm-up (JIT)

const perKeystroke: number[] = [];
for (let r = 0; r < ROUNDS; r++)
  for (const q of typed)
    perKeystroke.push(
      time(() => {
        rows += flattenSignalTree(index, searchSignalTree(index, q), noneToggled).length;
      }),
    );

const mean = perKeystroke.reduce((a, b) => a + b, 0) / perKeystroke.length;
const sorted = [...perKeystroke].sort((a, b) => a - b);
const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
const max = sorted.at(-1) ?? 0;

const n = SIGNALS.toLocaleString("en-US");
console.log(
  `signal search, ${n} signals: ${fmt(mean)} ms per keystroke (${(mean / TARGET_MS).toFixed(4)} of the ${TARGET_MS} ms target)`,
);
console.log(
  `  ${typed.length} keystrokes x ${ROUNDS} rounds; median ${fmt(median(perKeystroke))} ms, p99 ${fmt(p99)} ms, slowest ${fmt(max)} ms (${(max / TARGET_MS).toFixed(4)} of the target)`,
);
console.log(
  `  search keys prepared once per load of the line: ${fmt(median(builds))} ms (median of ${builds.length})`,
);
console.log(`  ${STATIONS} stations, ${groups.length} groups; rows flattened in total: ${rows}`);
console.log(
  `  load average ${(loadavg()[0] ?? 0).toFixed(1)} on ${availableParallelism()} CPUs during the run`,
);

// Signal Management's tree (settings/signals): the same keystrokes over every signal of the line,
// whatever its type, as one more list of rows.
const mBuilds: number[] = [];
let mIndex = buildManagementIndex(stations);
for (let i = 0; i < 20; i++)
  mBuilds.push(
    time(() => {
      mIndex = buildManagementIndex(stations);
    }),
  );
let mRows = 0;
for (let i = 0; i < 10; i++)
  for (const q of typed) mRows += flattenManagementTree(searchManagementTree(mIndex, q), noneToggled).length;
const mPer: number[] = [];
for (let r = 0; r < ROUNDS; r++)
  for (const q of typed)
    mPer.push(
      time(() => {
        mRows += flattenManagementTree(searchManagementTree(mIndex, q), noneToggled).length;
      }),
    );
const mMean = mPer.reduce((a, b) => a + b, 0) / mPer.length;
const mMax = Math.max(...mPer);
console.log(
  `signal management search, ${n} signals: ${fmt(mMean)} ms per keystroke, median ${fmt(median(mPer))} ms, slowest ${fmt(mMax)} ms (${(mMax / TARGET_MS).toFixed(4)} of the target); index ${fmt(median(mBuilds))} ms; rows ${mRows}`,
);
