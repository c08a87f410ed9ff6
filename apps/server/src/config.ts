import { availableParallelism } from "node:os";
import path from "node:path";
import { CONNECT_MAX_BYTES, MQTT_MAX_PACKET_BYTES } from "./ingest/packet-size.js";
import { withoutPassword } from "./lib/urls.js";
import { STATS_BUDGET_DEFAULTS } from "./modules/evaluation/stats-pool.js";

export type Role = "api" | "worker" | "ingest";

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Seed the demo customer on an empty database and run the line simulator. */
  demo: boolean;
  /** Line simulator: parts a minute per station of each demo line (0 = off, 60 = one a second). */
  simulatorRate: number;
  mqttUrl: string | undefined;
  mqttPort: number;
  /** MQTT_HOST: the address the embedded broker listens on (loopback unless the plant's machines must reach it). */
  mqttHost: string;
  /** MQTT_TLS_CERT / MQTT_TLS_KEY (PEM files) and MQTT_TLS_PORT: the embedded broker's MQTT-over-TLS listener. */
  mqttTls: { certFile: string; keyFile: string; port: number } | undefined;
  /** MQTT_ALLOW_ANONYMOUS: the embedded broker accepts clients without credentials (local experiments only). */
  mqttAllowAnonymous: boolean;
  /** MQTT_MAX_PACKET_BYTES: the largest packet an authenticated client may send the embedded broker. */
  mqttMaxPacketBytes: number;
  publicUrl: string;
  webDist: string;
  roles: Set<Role>;
  logLevel: string;
  mvdQueryMaxRecordCount: number;
  /** Mark the session cookie Secure: "auto" follows the request's protocol. */
  cookieSecure: "auto" | boolean;
  /** ENCRYPTION_KEY: base64 of 32 bytes; required with DATABASE_URL (lib/crypto.ts). */
  encryptionKey: string | undefined;
  /** ALLOW_LOOPBACK_OUTBOUND: let integrations call loopback (local fake servers in tests only). */
  allowLoopbackOutbound: boolean;
  /** Failed sign-ins one client address may make in 5 minutes across emails, then 429 (0 = no limit). */
  signinFailuresPerAddress: number;
  /** Requests a minute one client address may make to each sign-in route (login, set password); 0 = no limit. */
  rateLimitPerMinute: number;
  /** Requests a minute one client address may make to POST /api/ingest; 0 = no limit. */
  ingestRateLimitPerMinute: number;
  /**
   * Which proxies' X-Forwarded-For / -Proto / -Host the API believes (Fastify's trustProxy):
   * true (any), false (none), or a comma-separated list of addresses, CIDRs and the names
   * loopback, linklocal, uniquelocal. Default false: the connection's address is the client's.
   * A client that is not a trusted proxy cannot pick its own address.
   */
  trustProxy: boolean | string;
  /** INGEST_CLIENT_ID: the ingestor's MQTT client id on an external broker (a persistent session). */
  ingestClientId: string | undefined;
  /** MQTT_SHARED_SUBSCRIPTIONS: subscribe as `$share/linewatch/<topic>` (several ingest processes). */
  mqttSharedSubscriptions: boolean;
  /**
   * HEALTH_PORT: where a process without the api role answers /health, /ready and /metrics
   * (the api role answers them on PORT); 0 = not at all.
   */
  healthPort: number;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; unset = no /metrics. */
  metricsToken: string | undefined;
  worker: WorkerConfig;
  stats: StatsConfig;
};

/** The statistics threads (stats-pool.ts) and their CPU-time budgets (ms). */
export type StatsConfig = {
  /** STATS_THREADS: threads of each pool (the API's requests, the worker's evaluations); default one a core. */
  threads: number;
  /** STATS_REQUEST_CPU_MS: one preview or capability view. */
  requestCpuMs: number;
  /** BACKTEST_CPU_MS: one backtest. */
  backtestCpuMs: number;
  /** EVALUATION_CPU_MS: one monitor's evaluation in the worker. */
  evaluationCpuMs: number;
};

/** The worker role's settings (WORKER_*). */
export type WorkerConfig = {
  pollMs: number;
  leaseMs: number;
  batchSize: number;
  /** Length of a schedule "minute" (demos and end-to-end tests shorten it). */
  minuteMs: number;
  /** WORKER_ID; unset = host:pid:random. */
  id: string | undefined;
};

const bool = (v: string | undefined, dflt: boolean) =>
  v == null || v === "" ? dflt : ["1", "true", "yes", "on"].includes(v.toLowerCase());

function int(name: string, v: string | undefined, dflt: number): number {
  if (v == null || v === "") return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${v}"`);
  return n;
}

function positive(name: string, v: string | undefined, dflt: number): number {
  const n = int(name, v, dflt);
  if (n < 1) throw new Error(`${name} must be a whole number of 1 or more, got "${v}"`);
  return n;
}

function rate(name: string, v: string | undefined, dflt: number): number {
  if (v == null || v === "") return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of 0 or more, got "${v}"`);
  return n;
}

/**
 * MQTT_MAX_PACKET_BYTES, at least CONNECT_MAX_BYTES: a smaller limit would disconnect a machine
 * for a packet an unauthenticated client may already send, and most part records' messages with it.
 */
function mqttMaxPacketBytes(v: string | undefined): number {
  const n = int("MQTT_MAX_PACKET_BYTES", v, MQTT_MAX_PACKET_BYTES);
  if (n < CONNECT_MAX_BYTES)
    throw new Error(
      `MQTT_MAX_PACKET_BYTES must be at least ${CONNECT_MAX_BYTES} bytes (the largest CONNECT packet the broker takes), got "${v}"; unset it for the default of ${MQTT_MAX_PACKET_BYTES}`,
    );
  return n;
}

function mqttTls(env: NodeJS.ProcessEnv): Config["mqttTls"] {
  const certFile = env.MQTT_TLS_CERT || undefined;
  const keyFile = env.MQTT_TLS_KEY || undefined;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile)
    throw new Error(
      "MQTT_TLS_CERT and MQTT_TLS_KEY go together: set both (PEM files) for the MQTT-over-TLS listener, or neither",
    );
  const at = (file: string) => path.resolve(env.INIT_CWD ?? process.cwd(), file);
  return {
    certFile: at(certFile),
    keyFile: at(keyFile),
    port: int("MQTT_TLS_PORT", env.MQTT_TLS_PORT, 8883),
  };
}

/** At least this long: /metrics is not rate-limited, so a short token could be guessed online. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

function metricsToken(v: string | undefined): string | undefined {
  const token = v?.trim() || undefined;
  if (token && token.length < METRICS_TOKEN_MIN_LENGTH)
    throw new Error(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters (e.g. openssl rand -hex 32), got ${token.length}`,
    );
  return token;
}

function trustProxy(v: string | undefined): boolean | string {
  // No proxy unless configured: a default that believed loopback or private networks let any
  // client on the plant's LAN (or the host) pick its own address past the per-address limits.
  if (v == null || v.trim() === "") return false;
  const s = v.trim().toLowerCase();
  if (["true", "yes", "on"].includes(s)) return true;
  if (["false", "no", "off"].includes(s)) return false;
  return v.trim();
}

/** Every setting with its default; the README lists the same. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): Config {
  const roleAt = argv.indexOf("--role");
  const roleArg =
    argv.find((a) => a.startsWith("--role="))?.slice(7) ?? (roleAt >= 0 ? argv[roleAt + 1] : undefined);
  const roles = new Set(
    (roleArg ?? env.ROLE ?? "api,worker,ingest")
      .split(/[,|]/)
      .map((r) => r.trim())
      .filter(Boolean),
  ) as Set<Role>;
  for (const r of roles) {
    if (!["api", "worker", "ingest"].includes(r))
      throw new Error(`Unknown role "${r}": use api, worker or ingest`);
  }
  const port = int("PORT", env.PORT, 8080);
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    // Relative to where npm was started (INIT_CWD), so `npm start` and `npm run user:create`
    // from the repository root find the same folder although workspace scripts run elsewhere.
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), env.DATA_DIR ?? "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    demo: bool(env.DEMO, true),
    simulatorRate: rate("SIMULATOR_RATE", env.SIMULATOR_RATE, 1),
    mqttUrl: env.MQTT_URL || undefined,
    mqttPort: int("MQTT_PORT", env.MQTT_PORT, 1883),
    mqttHost: env.MQTT_HOST?.trim() || "127.0.0.1",
    mqttTls: mqttTls(env),
    mqttAllowAnonymous: bool(env.MQTT_ALLOW_ANONYMOUS, false),
    mqttMaxPacketBytes: mqttMaxPacketBytes(env.MQTT_MAX_PACKET_BYTES),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    webDist: path.resolve(env.WEB_DIST ?? new URL("../../web/dist", import.meta.url).pathname),
    roles,
    logLevel: env.LOG_LEVEL ?? "info",
    mvdQueryMaxRecordCount: int("MVD_QUERY_MAX_RECORD_COUNT", env.MVD_QUERY_MAX_RECORD_COUNT, 10_000),
    cookieSecure:
      env.COOKIE_SECURE == null || env.COOKIE_SECURE === "auto" ? "auto" : bool(env.COOKIE_SECURE, false),
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    allowLoopbackOutbound: bool(env.ALLOW_LOOPBACK_OUTBOUND, false),
    signinFailuresPerAddress: int("SIGNIN_FAILURES_PER_ADDRESS", env.SIGNIN_FAILURES_PER_ADDRESS, 20),
    rateLimitPerMinute: int("RATE_LIMIT_PER_MINUTE", env.RATE_LIMIT_PER_MINUTE, 120),
    ingestRateLimitPerMinute: int("INGEST_RATE_LIMIT_PER_MINUTE", env.INGEST_RATE_LIMIT_PER_MINUTE, 1200),
    trustProxy: trustProxy(env.TRUST_PROXY),
    ingestClientId: env.INGEST_CLIENT_ID || undefined,
    mqttSharedSubscriptions: bool(env.MQTT_SHARED_SUBSCRIPTIONS, false),
    healthPort: int("HEALTH_PORT", env.HEALTH_PORT, 9464),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    worker: {
      pollMs: rate("WORKER_POLL_MS", env.WORKER_POLL_MS, 5_000),
      leaseMs: rate("WORKER_LEASE_MS", env.WORKER_LEASE_MS, 120_000),
      batchSize: int("WORKER_BATCH_SIZE", env.WORKER_BATCH_SIZE, 8),
      minuteMs: rate("WORKER_MINUTE_MS", env.WORKER_MINUTE_MS, 60_000),
      id: env.WORKER_ID || undefined,
    },
    stats: {
      threads: positive("STATS_THREADS", env.STATS_THREADS, availableParallelism()),
      requestCpuMs: positive(
        "STATS_REQUEST_CPU_MS",
        env.STATS_REQUEST_CPU_MS,
        STATS_BUDGET_DEFAULTS.requestCpuMs,
      ),
      backtestCpuMs: positive("BACKTEST_CPU_MS", env.BACKTEST_CPU_MS, STATS_BUDGET_DEFAULTS.backtestCpuMs),
      evaluationCpuMs: positive(
        "EVALUATION_CPU_MS",
        env.EVALUATION_CPU_MS,
        STATS_BUDGET_DEFAULTS.evaluationCpuMs,
      ),
    },
  };
}

/**
 * The settings an operator needs to read in the start-up log, without a secret: no
 * ENCRYPTION_KEY or METRICS_TOKEN (only whether one is set), DATABASE_URL and MQTT_URL with their
 * passwords masked.
 */
export function describeSettings(c: Config) {
  const mask = withoutPassword;
  const hasApi = c.roles.has("api");
  return {
    roles: [...c.roles].join(","),
    database: c.databaseUrl
      ? { kind: "postgres", url: mask(c.databaseUrl) }
      : { kind: "pglite", dataDir: c.dataDir },
    ...(hasApi ? { port: c.port, publicUrl: c.publicUrl } : {}),
    host: c.host,
    health: hasApi ? `on PORT ${c.port}` : c.healthPort > 0 ? `on HEALTH_PORT ${c.healthPort}` : "off",
    metrics: c.metricsToken ? "on (METRICS_TOKEN set)" : "off (METRICS_TOKEN unset)",
    ...(c.roles.has("ingest")
      ? {
          mqtt: c.mqttUrl
            ? { url: mask(c.mqttUrl), clientId: c.ingestClientId ?? null, shared: c.mqttSharedSubscriptions }
            : {
                embeddedHost: c.mqttHost,
                embeddedPort: c.mqttPort,
                tlsPort: c.mqttTls?.port ?? null,
                allowAnonymous: c.mqttAllowAnonymous,
              },
        }
      : {}),
    ...(c.roles.has("worker") ? { worker: { ...c.worker, id: c.worker.id ?? null } } : {}),
    ...(hasApi
      ? {
          trustProxy: c.trustProxy,
          rateLimitPerMinute: c.rateLimitPerMinute,
          ingestRateLimitPerMinute: c.ingestRateLimitPerMinute,
        }
      : {}),
    statsThreads: c.stats.threads,
    demo: c.demo,
    simulatorRate: c.simulatorRate,
    encryptionKey: c.encryptionKey ? "set" : c.databaseUrl ? "unset" : "from DATA_DIR",
    logLevel: c.logLevel,
  };
}
