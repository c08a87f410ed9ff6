// The audit log's texts and constants, apart from audit-log.ts's schemas: the user menu (on every
// signed-in page) and the History buttons of the Settings sections show these, so those pages load
// without zod (issue #17: a module goes whole into the chunk of the page that first uses it).

/** What a record is about; one value per resource the product lets people configure. */
export const AUDIT_RESOURCES = [
  "monitor",
  "monitor_rules",
  "spc_limit",
  "signal",
  "station",
  "plant",
  "line",
  "feeder_line",
  "teams_webhook",
  "etq_config",
  "data_source",
  "ingest_token",
  "api_token",
  "mqtt_credential",
  "user",
  "feature_flag",
  "retention",
] as const;
export type TAuditResource = (typeof AUDIT_RESOURCES)[number];

export const AUDIT_ACTIONS = ["create", "update", "delete"] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 500;
/** The most rows one CSV export holds; a larger selection is refused with a message. */
export const AUDIT_EXPORT_MAX = 50_000;

/** Words the audit log shows and exports; one place so tests import what the UI shows. */
export const AUDIT_TEXTS = {
  menuItem: "Audit log",
  title: "Audit log",
  history: "History",
  /** The History button's name for a screen reader: "History of Line 1". */
  historyOf: (text: string, name: string) => `${text} of ${name}`,
  empty: "No changes recorded",
  exportCsv: "Export CSV",
  exportTooLarge: `More than ${AUDIT_EXPORT_MAX.toLocaleString("en-US")} changes match; narrow the period or the filters to export them`,
  resourceLabels: {
    monitor: "Monitor",
    monitor_rules: "Alert rules",
    spc_limit: "SPC limit",
    signal: "Signal",
    station: "Station",
    plant: "Plant",
    line: "Line",
    feeder_line: "Feeder line",
    teams_webhook: "Teams webhook",
    etq_config: "ETQ Reliance",
    data_source: "Data source",
    ingest_token: "Ingest token",
    api_token: "API token",
    mqtt_credential: "MQTT credentials",
    user: "User",
    feature_flag: "Feature flag",
    retention: "Data retention",
  } satisfies Record<TAuditResource, string>,
  actionLabels: { create: "Created", update: "Changed", delete: "Deleted" } satisfies Record<
    TAuditAction,
    string
  >,
  /** CSV columns, in order. */
  csvHeader: [
    "Time (UTC)",
    "User",
    "Provider staff",
    "Resource",
    "Id",
    "Name",
    "Action",
    "Field",
    "Before",
    "After",
  ],
} as const;
