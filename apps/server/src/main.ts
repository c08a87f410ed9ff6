import { existsSync } from "node:fs";
import path from "node:path";
import { describeSettings, loadConfig } from "./config.js";
import { startBackupEndpoint } from "./db/backup-endpoint.js";
import { openDatabase } from "./db/client.js";
import { describeDbError, loggableError } from "./db/errors.js";
import { buildApp } from "./http/app.js";
import { listenOrExplain, PortTakenError, startHealthServer } from "./http/health-server.js";
import { BrokerPortTakenError, isLoopback, readBrokerTls } from "./ingest/broker.js";
import { type Ingest, startIngest } from "./ingest/ingest.js";
import { createSecretBox, resolveEncryptionKey } from "./lib/crypto.js";
import { createLogger } from "./lib/logger.js";
import { processInfo, startSeriesFor, watchDatabase, watchWorkerBacklog } from "./lib/metrics.js";
import { withoutPassword } from "./lib/urls.js";
import { startSessionInvalidation } from "./modules/auth/session-invalidation.js";
import { startDemoLive } from "./modules/demo/demo.live.server.js";
import { seedDemoIfEmpty } from "./modules/demo/demo.seed.js";
import { createStatsPool } from "./modules/evaluation/stats-pool.js";
import type { ReadinessCheck } from "./modules/health/health.service.js";
import { startHousekeeping } from "./modules/housekeeping/housekeeping.service.js";
import { createServices } from "./services.js";
import { createOnEvaluated } from "./worker/alerts/apply.js";
import { startNotifierFor } from "./worker/notify/notifier.js";
import { createOutboxRepo } from "./worker/notify/outbox.repo.js";
import { overdue } from "./worker/schedule/schedule.js";
import { startWorkerFromConfig } from "./worker/worker.js";

/** How long a stop may take before the process exits anyway (the promise is 10 s). */
const SHUTDOWN_DEADLINE_MS = 9_000;

async function main() {
  const started = Date.now();
  const config = loadConfig();
  const encryptionKey = resolveEncryptionKey(config);
  const secrets = createSecretBox(encryptionKey.key);
  // One logger for the process: a child per role, with structured fields (lib/logger.ts).
  const logger = createLogger(config.logLevel);
  // What an operator needs to know this process was started with; no secret (config.ts).
  logger.info({ settings: describeSettings(config) }, `starting: ${[...config.roles].join(", ")}`);
  const database = await openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl, logger }
      : {
          dataDir: config.dataDir,
          // Every query fails once the embedded database's thread is gone: stop, so whatever runs
          // the server starts it again (the folder's lock is taken over as stale), instead of
          // answering every request with an error.
          onFatal: (err) => {
            logger.fatal({ reason: err.message }, "the embedded database stopped; the server exits");
            process.exit(1);
          },
        },
  );
  logger.info(
    `database: ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${config.dataDir}`}`,
  );

  const closers: (() => Promise<void>)[] = [() => database.close()];
  if (database.raw.kind === "pglite") {
    // `npm run backup` asks the process that holds the embedded database (backup-endpoint.ts).
    const endpoint = await startBackupEndpoint({
      dataDir: config.dataDir,
      client: database.raw.client,
      keySource: encryptionKey.source,
      logger: logger.child({ role: "backup" }),
    });
    closers.unshift(() => endpoint.close());
  }

  // Metrics (lib/metrics.ts): one registry for the process, whichever roles it runs.
  processInfo.set({ roles: [...config.roles].sort().join(","), database: database.kind }, 1);
  startSeriesFor(config.roles);
  const raw = database.raw;
  watchDatabase(
    raw.kind === "postgres"
      ? {
          kind: "postgres",
          pool: () => ({
            total: raw.pool.totalCount,
            idle: raw.pool.idleCount,
            waiting: raw.pool.waitingCount,
            max: raw.pool.options.max ?? 10,
          }),
        }
      : { kind: "pglite", thread: () => raw.client.load() },
  );
  if (config.roles.has("worker")) {
    const outbox = createOutboxRepo(database.db);
    watchWorkerBacklog({
      notificationsPending: () => outbox.pendingByChannel(),
      overdue: () => overdue(database.db, new Date()),
    });
  }

  // Statistics off the event loop (stats-pool.ts): one pool for the API's previews, backtests and
  // capability views, another for the worker's evaluations, so neither waits behind the other.
  const requestStats = config.roles.has("api")
    ? createStatsPool({ threads: config.stats.threads })
    : undefined;
  const evaluationStats = config.roles.has("worker")
    ? createStatsPool({ threads: config.stats.threads, keepAll: true })
    : undefined;
  for (const pool of [requestStats, evaluationStats]) if (pool) closers.push(() => pool.close());
  // The worker's threads load the statistics while the rest starts (seconds from the TypeScript
  // sources, where each thread loads tsx; well under one from the build). Awaited before the
  // worker claims anything; a failure to load still stops the start-up there.
  const statsStarted = Date.now();
  const evaluationStatsReady = evaluationStats
    ?.ready()
    .then(() =>
      logger.info(
        `statistics threads loaded in ${Date.now() - statsStarted} ms (${evaluationStats.threads} threads)`,
      ),
    );
  evaluationStatsReady?.catch(() => {});

  let ingest: Ingest | undefined;
  // GET /ready: the database answers; with the ingest role, the MQTT broker too (not before it started).
  const readiness: Record<string, ReadinessCheck> = {
    database: () => services.health.check(),
    ...(config.roles.has("ingest")
      ? {
          broker: async () => {
            if (!ingest) throw new Error("the ingestor is starting");
            await ingest.ready();
          },
        }
      : {}),
  };
  const services = createServices({
    db: database.db,
    publicUrl: config.publicUrl,
    mvdQueryMaxRecordCount: config.mvdQueryMaxRecordCount,
    notifications: { secrets, allowLoopbackOutbound: config.allowLoopbackOutbound },
    onDataSourcesChange: () => void ingest?.refresh(),
    onMqttCredentialsChange: () => void ingest?.refresh(),
    signinFailuresPerAddress: config.signinFailuresPerAddress,
    stats: {
      pool: requestStats,
      requestCpuMs: config.stats.requestCpuMs,
      backtestCpuMs: config.stats.backtestCpuMs,
    },
  });

  // Without the api role, /health, /ready and /metrics on HEALTH_PORT, from before the roles start
  // (/ready says what is not ready yet).
  if (!config.roles.has("api") && config.healthPort > 0) {
    const health = await startHealthServer({
      checks: readiness,
      metricsToken: config.metricsToken,
      port: config.healthPort,
      host: config.host,
    });
    closers.push(() => health.close());
    logger.info(`health endpoints on ${config.host}:${health.port} (/health, /ready, /metrics)`);
  }

  if (config.roles.has("ingest")) {
    ingest = await startIngest({
      db: database.db,
      partRecords: services.partRecords,
      mqttUrl: config.mqttUrl,
      mqttPort: config.mqttPort,
      mqttHost: config.mqttHost,
      mqttTls: config.mqttTls && readBrokerTls(config.mqttTls),
      clientId: config.ingestClientId,
      shared: config.mqttSharedSubscriptions,
      allowAnonymous: config.mqttAllowAnonymous,
      maxPacketBytes: config.mqttMaxPacketBytes,
      logger: logger.child({ role: "ingest" }),
    });
    const ing = ingest;
    closers.unshift(() => ing.close());
    logger.info(
      ing.embedded
        ? `embedded MQTT broker on ${config.mqttHost}:${config.mqttPort}${ing.tlsPort ? `, MQTT over TLS on port ${ing.tlsPort}` : ""}`
        : `ingesting from ${withoutPassword(ing.url)}`,
    );
    // Plain MQTT listens on MQTT_HOST beside TLS: a device that uses it sends its login in clear.
    if (ing.embedded && !isLoopback(config.mqttHost))
      logger.warn(
        ing.tlsPort
          ? `MQTT_HOST ${config.mqttHost}: plain MQTT on port ${config.mqttPort} is open beside TLS, and a device that uses it sends its login unencrypted; close that port in the firewall once every device speaks TLS`
          : `MQTT_HOST ${config.mqttHost}: the plant's logins cross the network unencrypted; set MQTT_TLS_CERT and MQTT_TLS_KEY for MQTT over TLS`,
      );
    if (ing.embedded && config.mqttAllowAnonymous)
      logger.warn(
        "MQTT_ALLOW_ANONYMOUS: the embedded broker accepts anyone without credentials (local experiments only)",
      );
  }

  if (config.demo) {
    const seeded = await seedDemoIfEmpty(database.db);
    if (seeded) logger.info(`demo plant seeded in ${seeded.ms} ms (${seeded.partRecords} part records)`);
  }

  if (config.demo && ingest && config.simulatorRate > 0) {
    // The seeded data sources must be subscribed before the first live record arrives.
    await ingest.refresh();
    const simulatorLogger = logger.child({ role: "simulator" });
    const simulator = await startDemoLive({
      db: database.db,
      url: ingest.url,
      loginFor: ingest.internalLogin,
      rate: config.simulatorRate,
      log: (m) => simulatorLogger.info(m),
    });
    if (simulator) {
      closers.unshift(() => simulator.stop());
      simulatorLogger.info(
        `line simulator: ${config.simulatorRate} parts a minute per station to ${simulator.url}`,
      );
    }
  }

  // Alert rules run in the transaction that stores each evaluation (worker/alerts).
  if (config.roles.has("worker")) {
    // No monitor is claimed before a statistics thread is up: a claim's slot would otherwise pass
    // while the thread starts.
    await evaluationStatsReady;
    closers.unshift(
      startWorkerFromConfig(database.db, config.worker, logger.child({ role: "worker" }), {
        onEvaluated: createOnEvaluated(),
        stats: evaluationStats && { pool: evaluationStats, cpuBudgetMs: config.stats.evaluationCpuMs },
      }).stop,
    );
  }
  if (config.roles.has("worker")) {
    closers.unshift(startNotifierFor(database.db, config, secrets, logger.child({ role: "worker" })).stop);
    closers.unshift(
      startHousekeeping({
        db: database.db,
        logger: logger.child({ role: "housekeeping" }),
        // PGlite has no autovacuum: the retention run vacuums what it deleted from (decision 0301).
        vacuum: database.kind === "pglite",
      }).stop,
    );
  }

  if (config.roles.has("api")) {
    if (!existsSync(path.join(config.webDist, "index.html")))
      logger.warn(`no web app build in ${config.webDist}: the API answers, the pages do not (npm run build)`);
    const stopSessionInvalidation = await startSessionInvalidation(database, services.auth);
    closers.unshift(stopSessionInvalidation);
    const app = await buildApp({
      services,
      webDist: config.webDist,
      cookieSecure: config.cookieSecure,
      logger: logger.child({ role: "api" }),
      settings: config,
      readiness,
    });
    closers.unshift(() => app.close());
    await listenOrExplain(() => app.listen({ port: config.port, host: config.host }), {
      setting: "PORT",
      host: config.host,
      port: config.port,
      hint: "Stop the process holding it or set PORT to a free port.",
    });
    logger.info(`ready in ${Date.now() - started} ms at ${config.publicUrl}`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping`);
    // Whatever hangs (a database that does not answer, a client that does not let go), the
    // process ends within 10 s; unacknowledged MQTT messages are redelivered by the broker.
    setTimeout(() => {
      logger.error(`${signal}: not stopped after ${SHUTDOWN_DEADLINE_MS / 1000} s, exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    for (const close of closers)
      await close().catch((err) => logger.error({ reason: describeDbError(err) }, "stopping failed"));
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((err) => {
  // Before the configuration is read there is no level yet: start-up failures always show.
  const logger = createLogger("info");
  if (err instanceof BrokerPortTakenError || err instanceof PortTakenError) logger.fatal(err.message);
  else logger.fatal({ err: loggableError(err) }, `start-up failed: ${describeDbError(err)}`);
  process.exit(1);
});
