import { QUERY_BOUNDS } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import type { Db } from "./db/client.js";
import { createAlertsService } from "./modules/alerts/alerts.service.js";
import { createApiTokensService } from "./modules/api-tokens/api-tokens.service.js";
import { createAuditLogService } from "./modules/audit-log/audit-log.service.js";
import { createAuthService } from "./modules/auth/auth.service.js";
import { createBacktestService } from "./modules/backtest/backtest.service.js";
import { createCapAlertsService } from "./modules/cap-alerts/cap-alerts.service.js";
import { createCapabilityService } from "./modules/capability/capability.service.js";
import { createCustomersService } from "./modules/customers/customers.service.js";
import { createDataSourceInsight } from "./modules/data-sources/data-sources.insight.js";
import { createDataSourcesService } from "./modules/data-sources/data-sources.service.js";
import { defaultStatsPool, STATS_BUDGET_DEFAULTS, type StatsPool } from "./modules/evaluation/stats-pool.js";
import { createEvaluationSeriesService } from "./modules/evaluation-series/evaluation-series.service.js";
import { createFeatureFlagsService } from "./modules/feature-flags/feature-flags.service.js";
import { createIngestTokensService } from "./modules/ingest-tokens/ingest-tokens.service.js";
import { createLinesService } from "./modules/lines/lines.service.js";
import { createMonitorPreview } from "./modules/monitor-preview/monitor-preview.service.js";
import { createMonitorsService } from "./modules/monitors/monitors.service.js";
import { createMqttCredentialsService } from "./modules/mqtt-credentials/mqtt-credentials.service.js";
import { createNotificationsService } from "./modules/notifications/notifications.service.js";
import { createPartRecordsCsv } from "./modules/part-records/part-records.csv.js";
import { createCsvUploadProgress } from "./modules/part-records/part-records.csv-progress.js";
import { createPartRecordsService } from "./modules/part-records/part-records.service.js";
import { createPlantOverviewService } from "./modules/plant-overview/plant-overview.service.js";
import { createPlantsService } from "./modules/plants/plants.service.js";
import { createRetentionService } from "./modules/retention/retention.service.js";
import { createSignalsService } from "./modules/signals/signals.service.js";
import { createSpcLimitsService } from "./modules/spc-limits/spc-limits.service.js";
import { createUsersService } from "./modules/users/users.service.js";

export type ServicesOptions = {
  db: Db;
  publicUrl: string;
  now?: () => Date;
  /** MVD_QUERY_MAX_RECORD_COUNT (config.mvdQueryMaxRecordCount); default 10,000. */
  mvdQueryMaxRecordCount?: number;
  onDataSourcesChange?: () => void;
  /** A plant's MQTT password changed: the embedded broker disconnects clients holding the old one. */
  onMqttCredentialsChange?: () => void;
  /** SIGNIN_FAILURES_PER_ADDRESS (config.signinFailuresPerAddress); 0 = no limit per address. */
  signinFailuresPerAddress?: number;
  notifications?: Parameters<typeof createNotificationsService>[1];
  /**
   * The statistics threads of previews, backtests and capability views, and their CPU-time budgets
   * (STATS_REQUEST_CPU_MS, BACKTEST_CPU_MS); default the process's shared pool and STATS_BUDGET_DEFAULTS.
   */
  stats?: { pool?: StatsPool; requestCpuMs?: number; backtestCpuMs?: number };
};

/** The composition root: every service, wired by hand. */
export function createServices(opts: ServicesOptions) {
  const { db } = opts;
  const auth = createAuthService({
    db,
    publicUrl: opts.publicUrl,
    now: opts.now,
    signinFailuresPerAddress: opts.signinFailuresPerAddress,
  });
  const flags = createFeatureFlagsService({ db });
  const plants = createPlantsService({ db });
  const lines = createLinesService({ db, plants });
  const plantOverview = createPlantOverviewService({ db, plants, now: opts.now });
  const notifications = createNotificationsService({ db, now: opts.now }, opts.notifications);
  const signals = createSignalsService({ db, lines, flags });
  const maxRecordCount = opts.mvdQueryMaxRecordCount ?? QUERY_BOUNDS.defaultMaxRecordCount;
  const monitors = createMonitorsService({ db, lines, plants, flags, now: opts.now, maxRecordCount });
  const stats = opts.stats?.pool ?? defaultStatsPool();
  const requestCpuMs = opts.stats?.requestCpuMs ?? STATS_BUDGET_DEFAULTS.requestCpuMs;
  const monitorPreview = createMonitorPreview({ db, maxRecordCount, stats, cpuBudgetMs: requestCpuMs });
  const backtest = createBacktestService({
    db,
    now: opts.now,
    maxRecordCount,
    stats,
    cpuBudgetMs: opts.stats?.backtestCpuMs ?? STATS_BUDGET_DEFAULTS.backtestCpuMs,
  });
  const alerts = createAlertsService({ db, now: opts.now, maxRecordCount });
  const users = createUsersService({ db, auth, flags, now: opts.now });
  const apiTokens = createApiTokensService({ db, now: opts.now });
  const customers = createCustomersService({ db });
  const dataSources = createDataSourcesService({ db, plants, onChange: opts.onDataSourcesChange });
  const ingestTokens = createIngestTokensService({ db, plants, now: opts.now });
  const mqttCredentials = createMqttCredentialsService({
    db,
    plants,
    now: opts.now,
    onChange: opts.onMqttCredentialsChange,
  });
  const spcLimits = createSpcLimitsService({ db, lines, flags, maxRecordCount });
  const capAlerts = createCapAlertsService({ db, lines });
  const capability = createCapabilityService({ db, lines, stats, cpuBudgetMs: requestCpuMs });
  const evaluationSeries = createEvaluationSeriesService({ db, lines });
  const partRecords = createPartRecordsService({ db });
  // Running CSV uploads of this process (progress and Cancel; one registry per instance).
  const csvUploads = createCsvUploadProgress();
  const partRecordsCsv = createPartRecordsCsv({ partRecords, plants, uploads: csvUploads });
  const dataSourceInsight = createDataSourceInsight({ db });
  const auditLog = createAuditLogService({ db });
  const retention = createRetentionService({ db, now: opts.now });
  const health = { check: () => db.execute(sql`select 1`).then(() => undefined) };
  return {
    db,
    health,
    auth,
    flags,
    plants,
    plantOverview,
    lines,
    notifications,
    signals,
    monitors,
    monitorPreview,
    backtest,
    alerts,
    users,
    apiTokens,
    customers,
    dataSources,
    ingestTokens,
    mqttCredentials,
    partRecords,
    partRecordsCsv,
    csvUploads,
    dataSourceInsight,
    spcLimits,
    capAlerts,
    capability,
    evaluationSeries,
    auditLog,
    retention,
  };
}

export type Services = ReturnType<typeof createServices>;
