// Loaded into the server by stall.bench.ts (node --import): the main thread's event-loop delay
// each second, on stderr as "loop-delay <CLOCK_MONOTONIC µs> <max ms> <p99 ms>", so the bench can
// say how long the loop was held in each phase without touching the server's code. Plain
// JavaScript: worker threads inherit --import and load it before any TypeScript loader.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

if (isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  setInterval(() => {
    const at = process.hrtime.bigint() / 1000n;
    process.stderr.write(
      `loop-delay ${at} ${(histogram.max / 1e6).toFixed(1)} ${(histogram.percentile(99) / 1e6).toFixed(1)}\n`,
    );
    histogram.reset();
  }, 1000).unref();
}
