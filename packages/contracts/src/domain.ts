import { z } from "zod";

// The domain's value sets, defined once: the database schema, the API, the worker and the web
// import them from here (architecture "Domain model"; monitoring.md).

// ── Monitors ───────────────────────────────────────────────────────────────────────────────────

export const MONITOR_TYPES = ["mvd", "svd", "cap"] as const;
export const ZMonitorType = z.enum(MONITOR_TYPES);
export type TMonitorType = z.infer<typeof ZMonitorType>;

/** Client values of the alert threshold control (spec monitor-forms §2: Low, Medium, High). */
export const ALERT_THRESHOLDS = ["low", "medium", "high"] as const;
export const ZAlertThreshold = z.enum(ALERT_THRESHOLDS);
export type TAlertThreshold = z.infer<typeof ZAlertThreshold>;

/** Server values of task_details.alert_threshold (spec monitor-forms §3: "mapping not shown"). */
export const SERVER_ALERT_THRESHOLDS = ["LOW", "MEDIUM", "HIGH"] as const;
export const ZServerAlertThreshold = z.enum(SERVER_ALERT_THRESHOLDS);
export type TServerAlertThreshold = z.infer<typeof ZServerAlertThreshold>;

/** What one evaluation of a monitor concluded (monitoring.md "Evaluations"). */
export const EVALUATION_STATES = ["OK", "BREACH", "NO_DATA", "ERROR"] as const;
export const ZEvaluationState = z.enum(EVALUATION_STATES);
export type TEvaluationState = z.infer<typeof ZEvaluationState>;

export const RULE_TYPES = ["Consecutive", "ExceedanceRuns", "ExceedanceTime"] as const;
export const ZRuleType = z.enum(RULE_TYPES);
export type TRuleType = z.infer<typeof ZRuleType>;

// ── Alerts and notifications ───────────────────────────────────────────────────────────────────

export const ALERT_STATES = ["OPEN", "ACKNOWLEDGED", "RESOLVED"] as const;
export const ZAlertState = z.enum(ALERT_STATES);
/** What raised an alert: a monitor's evaluations, or a line whose records stopped (No Data Alert). */
export const ALERT_KINDS = ["monitor", "no_data"] as const;
export const ZAlertKind = z.enum(ALERT_KINDS);
export type TAlertKind = z.infer<typeof ZAlertKind>;
export type TAlertState = z.infer<typeof ZAlertState>;

export const ALERT_EVENT_KINDS = [
  "OPENED",
  "FIRED",
  "ACKNOWLEDGED",
  "COMMENTED",
  "RESOLVED",
  "AUTO_RESOLVED",
] as const;
export const ZAlertEventKind = z.enum(ALERT_EVENT_KINDS);

export const NOTIFICATION_CHANNELS = ["teams", "etq"] as const;
export const ZNotificationChannel = z.enum(NOTIFICATION_CHANNELS);
export const OUTBOX_STATES = ["PENDING", "DELIVERED", "FAILED"] as const;
export const ZOutboxState = z.enum(OUTBOX_STATES);

export const RELIANCE_CONNECTION_STATUSES = ["SUCCESS", "ERROR"] as const;

// ── Signals ────────────────────────────────────────────────────────────────────────────────────

/** A signal's entity type (architecture "Domain model"). */
export const SIGNAL_ENTITY_TYPES = [
  "MEASUREMENT",
  "PART_ATTRIBUTE",
  "UPPER_LIMIT",
  "LOWER_LIMIT",
  "RESULT",
  "COMPONENT_ID",
  "UNITS",
  "UNKNOWN",
] as const;
export const ZSignalEntityType = z.enum(SIGNAL_ENTITY_TYPES);
export type TSignalEntityType = z.infer<typeof ZSignalEntityType>;

export const QUALITY_CHARACTERISTICS = ["NONE", "CRITICAL", "SIGNIFICANT", "HIGH_IMPACT"] as const;
export const ZQualityCharacteristic = z.enum(QUALITY_CHARACTERISTICS);

/** The one side a single-sided signal has. */
export const SIGNAL_LIMIT_SIDES = ["LOWER", "UPPER"] as const;
export const ZSignalLimitSide = z.enum(SIGNAL_LIMIT_SIDES);

/** How a signal's values are stored: numbers (measurements, limits) or text (results, attributes). */
export const SIGNAL_STORAGES = ["num", "text"] as const;

/** What a result classification says a result value means. */
export const RESULT_VALUES = ["pass", "fail", "other"] as const;
