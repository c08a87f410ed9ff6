import type { FastifyInstance } from "fastify";
import type { RoutesOptions } from "../types.js";
import { alertsRoutes } from "./alerts.routes.js";
import { apiTokensRoutes } from "./api-tokens.routes.js";
import { auditLogRoutes } from "./audit-log.routes.js";
import { authRoutes } from "./auth.routes.js";
import { backtestRoutes } from "./backtest.routes.js";
import { capAlertsRoutes } from "./cap-alerts.routes.js";
import { capabilityRoutes } from "./capability.routes.js";
import { dataSourcesRoutes } from "./data-sources.routes.js";
import { evaluationSeriesRoutes } from "./evaluation-series.routes.js";
import { featureFlagsRoutes } from "./feature-flags.routes.js";
import { ingestRoutes } from "./ingest.routes.js";
import { linesRoutes } from "./lines.routes.js";
import { monitorPreviewRoutes } from "./monitor-preview.routes.js";
import { monitorsRoutes } from "./monitors.routes.js";
import { mqttCredentialsRoutes } from "./mqtt-credentials.routes.js";
import { notificationsRoutes } from "./notifications.routes.js";
import { plantOverviewRoutes } from "./plant-overview.routes.js";
import { plantsRoutes } from "./plants.routes.js";
import { retentionRoutes } from "./retention.routes.js";
import { signalsRoutes } from "./signals.routes.js";
import { spcLimitsRoutes } from "./spc-limits.routes.js";
import { usersRoutes } from "./users.routes.js";

export async function registerRoutes(app: FastifyInstance, opts: RoutesOptions) {
  for (const routes of [
    authRoutes,
    apiTokensRoutes,
    usersRoutes,
    plantsRoutes,
    plantOverviewRoutes,
    linesRoutes,
    alertsRoutes,
    dataSourcesRoutes,
    featureFlagsRoutes,
    ingestRoutes,
    mqttCredentialsRoutes,
    notificationsRoutes,
    signalsRoutes,
    monitorsRoutes,
    monitorPreviewRoutes,
    backtestRoutes,
    spcLimitsRoutes,
    capAlertsRoutes,
    capabilityRoutes,
    evaluationSeriesRoutes,
    auditLogRoutes,
    retentionRoutes,
  ]) {
    routes(app, opts);
  }
}
