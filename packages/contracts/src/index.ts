// First: zod's configuration, before any schema is built (zod-setup.ts).
import "./zod-setup.js";

export * from "./alerts.js";
export * from "./auth.js";
export * from "./backtest.js";
export * from "./cap-alerts.js";
export * from "./common.js";
export * from "./data-sources.js";
export * from "./domain.js";
export * from "./evaluation-details.js";
export * from "./evaluation-summary.js";
export * from "./feature-flags.js";
export * from "./ingest-tokens.js";
export * from "./lines.js";
export * from "./monitor-form.js";
export * from "./monitor-query.js";
export * from "./monitor-rules.js";
export * from "./monitor-rules-form.js";
export * from "./monitors.js";
export * from "./mqtt-credentials.js";
export * from "./notifications.js";
export * from "./part-records.js";
export * from "./plants.js";
export * from "./settings.js";
export * from "./signals.js";
export * from "./spc-limits.js";
export * from "./ui.js";
export * from "./users.js";
