import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics (issue 28 §4), served by `GET /metrics` (http/routes/
 * health.routes.ts): one registry a process, whichever roles it runs. The code where a thing
 * happens counts it here with one call; what is read from elsewhere (the database pool, the
 * outbox, the schedule) is read when Prometheus scrapes, through the `watch*` functions main.ts
 * calls for the roles the process runs.
 *
 * Labels are bounded sets the code names (a transport, a reason category, a monitor type, a
 * route pattern), never a record, part, topic, customer or plant: with thousands of customers
 * one series each would swamp Prometheus, and the log has the ids (README "Operations").
 */
export const registry = new Registry();

/** Node's own metrics (CPU, memory, event-loop lag, GC, handles), prefixed as ours are. */
collectDefaultMetrics({ register: registry, prefix: "linewatch_" });

const registers = [registry];

// Seconds: most of what we time lasts milliseconds to seconds; evaluations up to minutes.
const FAST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SLOW_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
// How late a slot was evaluated: a healthy worker is within its poll (5 s) and the evaluation.
const LAG_BUCKETS = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** Where records come from. */
export type IngestTransport = "mqtt" | "http" | "csv";

export const ingestRecords = new Counter({
  name: "linewatch_ingest_records_total",
  help: "Part records received, by transport and outcome (stored; duplicate: already stored, unchanged; rejected: refused by validation or the database)",
  labelNames: ["transport", "outcome"] as const,
  registers,
});

/** The categories of DEAD_LETTER reasons (the stored reason says more). */
export type DeadLetterReason =
  | "not_json"
  | "no_records"
  | "too_many_records"
  | "invalid_record"
  | "database_refused";

export const ingestDeadLetters = new Counter({
  name: "linewatch_ingest_dead_letters_total",
  help: "MQTT messages or records kept as dead letters, by reason",
  labelNames: ["reason"] as const,
  registers,
});

export const ingestBatchSeconds = new Histogram({
  name: "linewatch_ingest_batch_seconds",
  help: "Time from the start of storing a batch of MQTT messages to its commit (retries included), by lane (shared batches; large: a message over 256 KiB stored alone)",
  labelNames: ["lane"] as const,
  buckets: FAST_BUCKETS,
  registers,
});

export const ingestMessages = new Counter({
  name: "linewatch_ingest_messages_total",
  help: "MQTT messages stored (their records committed or kept as dead letters) and acknowledged",
  registers,
});

/** The batchers of this process (one an ingest role; tests make more): what each holds now. */
const ingestQueues = new Set<() => number>();
/** Counts a batcher's waiting messages in linewatch_ingest_waiting_messages until the returned function is called. */
export function watchIngestQueue(read: () => number): () => void {
  ingestQueues.add(read);
  return () => ingestQueues.delete(read);
}
new Gauge({
  name: "linewatch_ingest_waiting_messages",
  help: "MQTT messages taken and not yet stored (unacknowledged): a rising figure means storing falls behind",
  registers,
  collect() {
    let n = 0;
    for (const read of ingestQueues) n += read();
    this.set(n);
  },
});

export const evaluations = new Counter({
  name: "linewatch_evaluations_total",
  help: "Monitor evaluations computed by this worker, by monitor type and outcome (ok, breach, no_data, error)",
  labelNames: ["type", "outcome"] as const,
  registers,
});

export const evaluationSeconds = new Histogram({
  name: "linewatch_evaluation_seconds",
  help: "Time to evaluate one monitor (its window query and statistics), by monitor type",
  labelNames: ["type"] as const,
  buckets: SLOW_BUCKETS,
  registers,
});

export const evaluationLagSeconds = new Histogram({
  name: "linewatch_evaluation_lag_seconds",
  help: "How late a monitor's scheduled slot was evaluated: time from the slot to its evaluation being stored, by monitor type",
  labelNames: ["type"] as const,
  buckets: LAG_BUCKETS,
  registers,
});

export const alertsChanged = new Counter({
  name: "linewatch_alerts_total",
  help: "Alerts opened and resolved by this worker (event: opened, resolved), by type (mvd, svd, cap, no_data)",
  labelNames: ["type", "event"] as const,
  registers,
});

export const notificationsSent = new Counter({
  name: "linewatch_notifications_total",
  help: "Notification delivery attempts by channel (teams, etq) and outcome (delivered; retrying: failed, tried again later; failed: failed for good)",
  labelNames: ["channel", "outcome"] as const,
  registers,
});

export const httpRequests = new Counter({
  name: "linewatch_http_requests_total",
  help: "HTTP requests answered, by route pattern, method and status",
  labelNames: ["route", "method", "status"] as const,
  registers,
});

export const httpRequestSeconds = new Histogram({
  name: "linewatch_http_request_seconds",
  help: "Time to answer an HTTP request, by route pattern and method",
  labelNames: ["route", "method"] as const,
  buckets: FAST_BUCKETS,
  registers,
});

/** The route label of a request no route matched (404s, the web app's pages): never the raw URL. */
export const UNMATCHED_ROUTE = "unmatched";

export const processInfo = new Gauge({
  name: "linewatch_process_info",
  help: "Always 1: the roles this process runs and its database (pglite, postgres)",
  labelNames: ["roles", "database"] as const,
  registers,
});

/** What a gauge read at scrape time may take before it is left out of the answer (ms). */
const READ_TIMEOUT_MS = 2_000;

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Reads gauges from the database when scraped; a failed or slow read leaves them out (no stale values). */
function scrapedGauge<L extends string>(
  config: { name: string; help: string; labelNames?: readonly L[] },
  read: () => Promise<{ labels?: Partial<Record<L, string>>; value: number }[]>,
) {
  return new Gauge({
    ...config,
    labelNames: config.labelNames ?? [],
    registers,
    async collect() {
      this.reset();
      try {
        const values = await withTimeout(read(), READ_TIMEOUT_MS, config.name);
        for (const v of values) this.set((v.labels ?? {}) as Partial<Record<L, string>>, v.value);
      } catch {
        // Left out: an absent series says "unknown"; /ready tells whether the database answers.
      }
    },
  });
}

type PoolCounts = { total: number; idle: number; waiting: number; max: number };
type PgliteCounts = { inFlight: number; background: number; transactions: number };

let registeredDatabase = false;
/**
 * The database's connections, read when scraped: PostgreSQL's pool (connections in use and idle,
 * its maximum, queries waiting for a connection); the embedded PGlite's one connection (statements
 * sent and not answered, bulk statements waiting in its background lane, open transactions).
 */
export function watchDatabase(
  read: { kind: "postgres"; pool: () => PoolCounts } | { kind: "pglite"; thread: () => PgliteCounts },
) {
  if (registeredDatabase) return;
  registeredDatabase = true;
  if (read.kind === "postgres") {
    new Gauge({
      name: "linewatch_db_pool_connections",
      help: "PostgreSQL pool connections by state (in_use, idle)",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const p = read.pool();
        this.set({ state: "in_use" }, p.total - p.idle);
        this.set({ state: "idle" }, p.idle);
      },
    });
    new Gauge({
      name: "linewatch_db_pool_max_connections",
      help: "The PostgreSQL pool's maximum connections",
      registers,
      collect() {
        this.set(read.pool().max);
      },
    });
    new Gauge({
      name: "linewatch_db_pool_waiting",
      help: "Queries waiting for a free PostgreSQL pool connection",
      registers,
      collect() {
        this.set(read.pool().waiting);
      },
    });
    return;
  }
  new Gauge({
    name: "linewatch_db_pglite_statements",
    help: "Embedded database (PGlite, one statement at a time): statements sent and not yet answered (lane=foreground) and bulk statements waiting in the background lane (lane=background)",
    labelNames: ["lane"] as const,
    registers,
    collect() {
      const t = read.thread();
      this.set({ lane: "foreground" }, t.inFlight);
      this.set({ lane: "background" }, t.background);
    },
  });
  new Gauge({
    name: "linewatch_db_pglite_transactions",
    help: "Embedded database (PGlite): transactions open",
    registers,
    collect() {
      this.set(read.thread().transactions);
    },
  });
}

let registeredWorker = false;
/**
 * The worker's backlog, read from the database when scraped (the same figures from every worker
 * process: aggregate with max, not sum): notifications waiting to be delivered, and the monitors whose slot is due and not being evaluated, with the age of the oldest such slot.
 */
export function watchWorkerBacklog(read: {
  notificationsPending: () => Promise<{ channel: string; count: number }[]>;
  overdue: () => Promise<{ monitors: number; oldestSeconds: number }>;
}) {
  if (registeredWorker) return;
  registeredWorker = true;
  // Both overdue gauges from one statement a scrape.
  let lastOverdue: { at: number; answer: ReturnType<typeof read.overdue> } | undefined;
  const overdueNow = () => {
    if (!lastOverdue || Date.now() - lastOverdue.at > 1_000)
      lastOverdue = { at: Date.now(), answer: read.overdue() };
    return lastOverdue.answer;
  };
  scrapedGauge(
    {
      name: "linewatch_notifications_pending",
      help: "Notifications in the outbox waiting for their delivery or a retry, by channel (teams, etq)",
      labelNames: ["channel"] as const,
    },
    async () => {
      const counts = new Map<string, number>([
        ["teams", 0],
        ["etq", 0],
      ]);
      for (const r of await read.notificationsPending()) counts.set(r.channel, r.count);
      return [...counts].map(([channel, value]) => ({ labels: { channel }, value }));
    },
  );
  scrapedGauge(
    {
      name: "linewatch_evaluation_overdue_monitors",
      help: "Active monitors whose scheduled slot has passed and that no worker is evaluating",
    },
    async () => [{ value: (await overdueNow()).monitors }],
  );
  scrapedGauge(
    {
      name: "linewatch_evaluation_overdue_seconds",
      help: "How far the oldest overdue monitor's slot lies behind now (0 when none is overdue): the evaluation lag while it happens",
    },
    async () => [{ value: (await overdueNow()).oldestSeconds }],
  );
}

/**
 * The series an alerting rule watches start at 0 in the processes whose roles move them, so the
 * first dead letter or failed notification is an increase (a series that appears with 1 is none
 * for rate() and increase()).
 */
export function startSeriesFor(roles: ReadonlySet<string>) {
  if (roles.has("ingest")) {
    const reasons: DeadLetterReason[] = [
      "not_json",
      "no_records",
      "too_many_records",
      "invalid_record",
      "database_refused",
    ];
    for (const reason of reasons) ingestDeadLetters.inc({ reason }, 0);
  }
  if (roles.has("worker")) {
    for (const channel of ["teams", "etq"])
      for (const outcome of ["delivered", "retrying", "failed"])
        notificationsSent.inc({ channel, outcome }, 0);
    for (const type of ["mvd", "svd", "cap"])
      for (const outcome of ["ok", "breach", "no_data", "error"]) evaluations.inc({ type, outcome }, 0);
    for (const type of ["mvd", "svd", "cap", "no_data"])
      for (const event of ["opened", "resolved"]) alertsChanged.inc({ type, event }, 0);
  }
}

/** The Prometheus text exposition of every metric of the process. */
export const metricsText = () => registry.metrics();
export const METRICS_CONTENT_TYPE = registry.contentType;
