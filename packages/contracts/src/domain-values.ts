// The domain's value sets as plain lists, apart from domain.ts's zod enums built from them: a page
// that shows or checks one of these lists loads without zod (issue #17: a module goes whole into
// the chunk of the page that first uses it). Defined once: the database schema, the API, the worker
// and the web import them from here or through domain.ts's enums (docs/architecture.md "Domain model").

export const MONITOR_TYPES = ["mvd", "svd", "cap"] as const;

/** Client values of the alert threshold control (requirements.md monitor-forms §2: Low, Medium, High). */
export const ALERT_THRESHOLDS = ["low", "medium", "high"] as const;

/** Server values of task_details.alert_threshold (requirements.md monitor-forms §3: "mapping not shown"). */
export const SERVER_ALERT_THRESHOLDS = ["LOW", "MEDIUM", "HIGH"] as const;

/** What one evaluation of a monitor concluded (docs/monitoring.md "Evaluations"). */
export const EVALUATION_STATES = ["OK", "BREACH", "NO_DATA", "ERROR"] as const;

export const RULE_TYPES = ["Consecutive", "ExceedanceRuns", "ExceedanceTime"] as const;

export const ALERT_STATES = ["OPEN", "ACKNOWLEDGED", "RESOLVED"] as const;

/** What raised an alert: a monitor's evaluations, or a line whose records stopped (No Data Alert). */
export const ALERT_KINDS = ["monitor", "no_data"] as const;

export const ALERT_EVENT_KINDS = [
  "OPENED",
  "FIRED",
  "ACKNOWLEDGED",
  "COMMENTED",
  "RESOLVED",
  "AUTO_RESOLVED",
] as const;

export const NOTIFICATION_CHANNELS = ["teams", "etq"] as const;

export const OUTBOX_STATES = ["PENDING", "DELIVERED", "FAILED"] as const;

export const RELIANCE_CONNECTION_STATUSES = ["SUCCESS", "ERROR"] as const;

/** A signal's entity type (docs/architecture.md "Domain model"). */
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

export const QUALITY_CHARACTERISTICS = ["NONE", "CRITICAL", "SIGNIFICANT", "HIGH_IMPACT"] as const;

/** The one side a single-sided signal has. */
export const SIGNAL_LIMIT_SIDES = ["LOWER", "UPPER"] as const;

/** How a signal's values are stored: numbers (measurements, limits) or text (results, attributes). */
export const SIGNAL_STORAGES = ["num", "text"] as const;

/** What a result classification says a result value means. */
export const RESULT_VALUES = ["pass", "fail", "other"] as const;
