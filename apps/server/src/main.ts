import { loadConfig } from "./config.js";
import { startBackupEndpoint } from "./db/backup-endpoint.js";
import { openDatabase } from "./db/client.js";
import { describeDbError, loggableError } from "./db/errors.js";
import { buildApp } from "./http/app.js";
import { BrokerPortTakenError } from "./ingest/broker.js";
import { type Ingest, startIngest } from "./ingest/ingest.js";
import { createSecretBox, resolveEncryptionKey } from "./lib/crypto.js";
import { createLogger } from "./lib/logger.js";
import { withoutPassword } from "./lib/urls.js";
import { startSessionInvalidation } from "./modules/auth/session-invalidation.js";
import { startDemoLive } from "./modules/demo/demo.live.server.js";
import { seedDemoIfEmpty } from "./modules/demo/demo.seed.js";
import { createStatsPool } from "./modules/evaluation/stats-pool.js";
import { startHousekeeping } from "./modules/housekeeping/housekeeping.service.js";
import { createServices } from "./services.js";
import { createOnEvaluated } from "./worker/alerts/apply.js";
import { startNotifierFor } from "./worker/notify/notifier.js";
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

  // Statistics off the event loop (stats-pool.ts): one pool for the API's previews, backtests and
  // capability views, another for the worker's evaluations, so neither waits behind the other.
  const requestStats = config.roles.has("api")
    ? createStatsPool({ threads: config.stats.threads })
    : undefined;
  const evaluationStats = config.roles.has("worker")
    ? createStatsPool({ threads: config.stats.threads, keepAll: true })
    : undefined;
  for (const pool of [requestStats, evaluationStats]) if (pool) closers.push(() => pool.close());

  let ingest: Ingest | undefined;
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

  if (config.roles.has("ingest")) {
    ingest = await startIngest({
      db: database.db,
      partRecords: services.partRecords,
      mqttUrl: config.mqttUrl,
      mqttPort: config.mqttPort,
      clientId: config.ingestClientId,
      shared: config.mqttSharedSubscriptions,
      allowAnonymous: config.mqttAllowAnonymous,
      maxPacketBytes: config.mqttMaxPacketBytes,
      logger: logger.child({ role: "ingest" }),
    });
    const ing = ingest;
    closers.unshift(() => ing.close());
    logger.info(
      ing.embedded ? `embedded MQTT broker on ${ing.url}` : `ingesting from ${withoutPassword(ing.url)}`,
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
    await evaluationStats?.ready();
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
      startHousekeeping({ db: database.db, logger: logger.child({ role: "housekeeping" }) }).stop,
    );
  }

  if (config.roles.has("api")) {
    const stopSessionInvalidation = await startSessionInvalidation(database, services.auth);
    closers.unshift(stopSessionInvalidation);
    const app = await buildApp({
      services,
      webDist: config.webDist,
      cookieSecure: config.cookieSecure,
      logger: logger.child({ role: "api" }),
      settings: config,
    });
    closers.unshift(() => app.close());
    await app.listen({ port: config.port, host: config.host });
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
  if (err instanceof BrokerPortTakenError) logger.fatal(err.message);
  else logger.fatal({ err: loggableError(err) }, `start-up failed: ${describeDbError(err)}`);
  process.exit(1);
});
