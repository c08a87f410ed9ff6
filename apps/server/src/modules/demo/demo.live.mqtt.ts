/**
 * The live line simulator: publishes the demo lines' parts (demo.live.ts) as JSON part records,
 * QoS 1, on `linewatch/demo/<plant>/<line>/<station>`, as their time comes. The MQTT client
 * reconnects by itself; while the broker is away records wait in a bounded queue (the oldest are
 * dropped past it), nothing throws, and the log gets one summary a minute at most.
 */
import mqtt from "mqtt";
import { withoutPassword } from "../../lib/urls.js";
import { createLiveParts, type LiveRecord, type LiveResume } from "./demo.live.js";
import type { ActiveDisturbance } from "./demo.live.schedule.js";

export type LineSimulatorOptions = {
  /** Broker, e.g. mqtt://127.0.0.1:1883. */
  url: string;
  /** Parts a minute per station; more than 0. */
  rate: number;
  seed?: number;
  /** Where each line's stored records end (demo.live.server.ts); else the lines start now. */
  resume?: ReadonlyMap<string, LiveResume>;
  /** The clock (ms); Date.now by default. The parts' times and the schedule follow it. */
  now?: () => number;
  /** How often the clock is read, in real ms (default: a quarter interval, 50 ms to 1 s). */
  tickMs?: number;
  /** Gets one summary per `reportMs` real ms (default 60 s): records published, disturbances. */
  log?: (msg: string) => void;
  reportMs?: number;
  clientId?: string;
  /** Only these demo plants' lines (by plant name); all when unset. */
  plants?: readonly string[];
  /** The broker's login: on the embedded broker a plant's MQTT credential, or the server's own. */
  username?: string;
  password?: string;
};

export type LineSimulatorStats = {
  published: number;
  queued: number;
  dropped: number;
  /** Records published per line. */
  byLine: Record<string, number>;
};

/** Records waiting for the broker, at most; older ones are dropped past this. */
const MAX_QUEUED = 20_000;
/** QoS 1 publishes awaiting their PUBACK, at most. */
const MAX_IN_FLIGHT = 500;
const REPORT_MS = 60_000;

export function describeDisturbance(d: ActiveDisturbance): string {
  const left = Math.ceil(d.leftMs / 60_000);
  return `${d.what} (${left} min left)`;
}

/** Starts publishing at once; the connection is made, and remade, in the background. */
export function startLineSimulator(opts: LineSimulatorOptions) {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  const parts = createLiveParts({
    rate: opts.rate,
    seed: opts.seed,
    startedAt: now(),
    resume: opts.resume,
    plants: opts.plants,
  });
  const realIntervalMs = 60_000 / opts.rate;
  const tickMs = opts.tickMs ?? Math.min(1_000, Math.max(50, realIntervalMs / 4));

  const client = mqtt.connect(opts.url, {
    clientId: opts.clientId ?? `linewatch-simulator-${Math.random().toString(16).slice(2, 10)}`,
    reconnectPeriod: 2_000,
    connectTimeout: 10_000,
    ...(opts.username ? { username: opts.username, password: opts.password } : {}),
  });
  let lastError: string | undefined;
  client.on("error", (err: Error & { code?: unknown }) => {
    // A refused login (CONNACK 4 or 5) will not mend itself: say so at once, once per message.
    if ((err.code === 4 || err.code === 5) && err.message !== lastError) {
      log(`the broker at ${withoutPassword(opts.url)} refused the login: ${err.message}`);
    }
    lastError = err.message;
  });
  client.on("connect", () => {
    lastError = undefined;
    pump();
  });

  let queue: LiveRecord[] = [];
  let head = 0;
  let inFlight = 0;
  let stopped = false;
  const stats: LineSimulatorStats = { published: 0, queued: 0, dropped: 0, byLine: {} };
  let sinceReport: Record<string, number> = {};
  let droppedSinceReport = 0;

  function pump() {
    while (!stopped && client.connected && inFlight < MAX_IN_FLIGHT && head < queue.length) {
      const r = queue[head++] as LiveRecord;
      inFlight++;
      client.publish(r.topic, JSON.stringify(r.record), { qos: 1 }, (err) => {
        inFlight--;
        if (err) lastError = err.message;
        else {
          stats.published++;
          stats.byLine[r.line] = (stats.byLine[r.line] ?? 0) + 1;
          sinceReport[r.line] = (sinceReport[r.line] ?? 0) + 1;
        }
        pump();
      });
    }
    if (head > 1_000 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
    stats.queued = queue.length - head;
  }

  function tick() {
    const due = parts.due(now());
    for (const r of due) queue.push(r);
    const over = queue.length - head - MAX_QUEUED;
    if (over > 0) {
      head += over;
      stats.dropped += over;
      droppedSinceReport += over;
    }
    pump();
  }

  function report() {
    const counts = Object.entries(sinceReport);
    const published = counts.reduce((n, [, c]) => n + c, 0);
    const active = parts.disturbances(now());
    const notes = [
      `${published} part records published${counts.length ? ` (${counts.map(([l, c]) => `${l} ${c}`).join(", ")})` : ""}`,
    ];
    if (!client.connected)
      notes.push(
        `waiting for the broker at ${withoutPassword(opts.url)}${lastError ? ` (${lastError})` : ""}, ${stats.queued} queued`,
      );
    if (droppedSinceReport) notes.push(`${droppedSinceReport} dropped (queue full)`);
    notes.push(
      active.length ? `disturbances: ${active.map(describeDisturbance).join("; ")}` : "no disturbance",
    );
    log(notes.join("; "));
    sinceReport = {};
    droppedSinceReport = 0;
  }

  const ticker = setInterval(tick, tickMs);
  const reporter = setInterval(report, opts.reportMs ?? REPORT_MS);
  tick();

  return {
    url: withoutPassword(opts.url),
    startedAt: parts.startedAt,
    lines: parts.lines,
    stats: (): LineSimulatorStats => ({ ...stats, byLine: { ...stats.byLine } }),
    disturbances: () => parts.disturbances(now()),
    /** Stops making parts; waits up to `graceMs` for publishes in flight, then disconnects. */
    async stop(graceMs = 2_000) {
      if (stopped) return;
      stopped = true;
      clearInterval(ticker);
      clearInterval(reporter);
      const until = Date.now() + graceMs;
      while (inFlight > 0 && client.connected && Date.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      await Promise.race([
        new Promise<void>((resolve) => {
          client.end(!client.connected || inFlight > 0, {}, () => resolve());
        }),
        new Promise((r) => setTimeout(r, graceMs).unref()),
      ]);
    },
  };
}
export type LineSimulatorHandle = ReturnType<typeof startLineSimulator>;
