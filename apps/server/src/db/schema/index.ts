// Database schema: one PostgreSQL dialect for PGlite (embedded) and PostgreSQL (DATABASE_URL).
// Every customer-owned row carries customer_id so every query can be scoped by the session's
// customer (architecture.md "Domain model").
import {
  ALERT_EVENT_KINDS,
  ALERT_STATES,
  ALERT_THRESHOLDS,
  EVALUATION_STATES,
  MONITOR_TYPES,
  NOTIFICATION_CHANNELS,
  OUTBOX_STATES,
  QUALITY_CHARACTERISTICS,
  RELIANCE_CONNECTION_STATUSES,
  RESULT_VALUES,
  RULE_TYPES,
  SIGNAL_ENTITY_TYPES,
  SIGNAL_LIMIT_SIDES,
  SIGNAL_STORAGES,
} from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const id = () => uuid("id").primaryKey().defaultRandom();
const customerRef = () =>
  uuid("customer_id")
    .notNull()
    .references(() => customers.id, { onDelete: "cascade" });

/** float8[] that may hold NULLs (a record missing a value for a signal). */
const float8Array = customType<{ data: (number | null)[]; driverData: string | (number | null)[] }>({
  dataType: () => "double precision[]",
});

/** text[] that may hold NULLs. */
const nullableTextArray = customType<{ data: (string | null)[]; driverData: string | (string | null)[] }>({
  dataType: () => "text[]",
});

export const customers = pgTable("customers", {
  id: id(),
  name: text("name").notNull(),
  /** The provider's own company: its staff may act for any customer. */
  isProvider: boolean("is_provider").notNull().default(false),
  /** Customer-id override that shows the ETQ Reliance item without its flag (spec settings §2.1). */
  etqOverride: boolean("etq_override").notNull().default(false),
  isDemo: boolean("is_demo").notNull().default(false),
  createdAt: ts("created_at").notNull().defaultNow(),
});

export const plants = pgTable(
  "plants",
  {
    id: id(),
    customerId: customerRef(),
    name: text("name").notNull(),
    /** IANA time zone, e.g. Europe/Berlin. */
    timeZone: text("time_zone").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("plants_customer_name_uq").on(t.customerId, t.name)],
);

export const ingestors = pgTable("ingestors", {
  id: id(),
  customerId: customerRef(),
  plantId: uuid("plant_id")
    .notNull()
    .unique()
    .references(() => plants.id, { onDelete: "cascade" }),
  createdAt: ts("created_at").notNull().defaultNow(),
});

export const dataSources = pgTable(
  "data_sources",
  {
    id: id(),
    customerId: customerRef(),
    ingestorId: uuid("ingestor_id")
      .notNull()
      .references(() => ingestors.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** MQTT topic filter the ingestor subscribes to. */
    topic: text("topic").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("data_sources_ingestor_name_uq").on(t.ingestorId, t.name)],
);

export const lines = pgTable(
  "lines",
  {
    id: id(),
    customerId: customerRef(),
    plantId: uuid("plant_id")
      .notNull()
      .references(() => plants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    displayName: text("display_name"),
    friendlyName: text("friendly_name"),
    active: boolean("active").notNull().default(true),
    lastIngestedTime: ts("last_ingested_time"),
    isNewLine: boolean("is_new_line").notNull().default(false),
    /** No-data alert: hours after the last record before "No Ingestion" shows; null = off. */
    ingestionThresholdHours: integer("ingestion_threshold_hours"),
    alertViewingWindowDays: integer("alert_viewing_window_days").notNull().default(90),
    excludedPartIds: text("excluded_part_ids").array().notNull().default(sql`'{}'::text[]`),
    excludedModelNumbers: text("excluded_model_numbers").array().notNull().default(sql`'{}'::text[]`),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("lines_plant_name_uq").on(t.plantId, t.name)],
);

/** A line fed by other lines (no cycles; checked by the lines service). */
export const lineFeeders = pgTable(
  "line_feeders",
  {
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    feederLineId: uuid("feeder_line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.feederLineId] })],
);

export const stations = pgTable(
  "stations",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    final: boolean("final").notNull().default(false),
    /** The line's catch-all station for signals that arrive without one. */
    isDefault: boolean("is_default").notNull().default(false),
    /** Next free slots in the part-record arrays of this station. */
    nextNumSlot: integer("next_num_slot").notNull().default(0),
    nextTextSlot: integer("next_text_slot").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("stations_line_name_uq").on(t.lineId, t.name)],
);

export const signals = pgTable(
  "signals",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    stationId: uuid("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    friendlyName: text("friendly_name"),
    entityType: text("entity_type", { enum: SIGNAL_ENTITY_TYPES }).notNull(),
    isSignalActive: boolean("is_signal_active").notNull().default(true),
    qualityCharacteristic: text("quality_characteristic", { enum: QUALITY_CHARACTERISTICS })
      .notNull()
      .default("NONE"),
    singleSide: text("single_side", { enum: SIGNAL_LIMIT_SIDES }),
    unit: text("unit"),
    upperLimitSignalId: uuid("upper_limit_signal_id"),
    lowerLimitSignalId: uuid("lower_limit_signal_id"),
    resultSignalId: uuid("result_signal_id"),
    /**
     * Where the signal's value sits in a part record: numeric signals in part_records.num_values,
     * text signals (results, attributes, component ids) in part_records.text_values. Fixed at
     * creation so a later entity-type change never moves stored data.
     */
    storage: text("storage", { enum: SIGNAL_STORAGES }).notNull(),
    slot: integer("slot").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("signals_station_name_uq").on(t.stationId, t.name),
    uniqueIndex("signals_station_slot_uq").on(t.stationId, t.storage, t.slot),
    index("signals_line_idx").on(t.lineId),
  ],
);

export const resultClassifications = pgTable(
  "result_classifications",
  {
    id: id(),
    customerId: customerRef(),
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    result: text("result", { enum: RESULT_VALUES }).notNull(),
    failureMode: text("failure_mode"),
  },
  (t) => [uniqueIndex("result_classifications_signal_value_uq").on(t.signalId, t.value)],
);

export const signalGroups = pgTable(
  "signal_groups",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [uniqueIndex("signal_groups_line_name_uq").on(t.lineId, t.name)],
);

export const signalGroupMembers = pgTable(
  "signal_group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => signalGroups.id, { onDelete: "cascade" }),
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.signalId] })],
);

/** Model numbers seen per line (kept on ingest; offered by filters). */
export const modelNumbers = pgTable(
  "model_numbers",
  {
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    /** Challenge (master) parts used to check the station, excluded from cap monitors on request. */
    isChallenge: boolean("is_challenge").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.value] })],
);

/** Distinct values of part-attribute signals (kept on ingest; offered by filters). */
export const partAttributeValues = pgTable(
  "part_attribute_values",
  {
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.signalId, t.value] })],
);

/** Part ids used as challenge parts per line (cap exclusion). */
export const challengeParts = pgTable(
  "challenge_parts",
  {
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    partId: text("part_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.partId] })],
);

/**
 * One part at one station at one time: one compact row, values in arrays indexed by the signals'
 * slots. The primary key is the idempotency key (station → line, partId, timestamp, op).
 */
export const partRecords = pgTable(
  "part_records",
  {
    stationId: uuid("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
    ts: ts("ts").notNull(),
    partId: text("part_id").notNull(),
    op: smallint("op").notNull().default(1),
    modelNumber: text("model_number"),
    numValues: float8Array("num_values"),
    textValues: nullableTextArray("text_values"),
  },
  (t) => [
    primaryKey({ columns: [t.stationId, t.ts, t.partId, t.op] }),
    // A part's newest record at another station (MVD rows across stations, cap op counts): without
    // it every lookup scans the station's records back to the part, quadratic in the window.
    index("part_records_station_part_idx").on(t.stationId, t.partId, t.ts, t.op),
  ],
);

export const users = pgTable(
  "users",
  {
    id: id(),
    customerId: customerRef(),
    email: text("email").notNull(),
    passwordHash: text("password_hash"),
    lastLogin: ts("last_login"),
    locationName: text("location_name"),
    locationPlantId: uuid("location_plant_id").references(() => plants.id, { onDelete: "set null" }),
    selectedPlantId: uuid("selected_plant_id").references(() => plants.id, { onDelete: "set null" }),
    selectedLineId: uuid("selected_line_id").references(() => lines.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_uq").on(sql`lower(${t.email})`)],
);

export const ROLES = ["administrator"] as const;

/** Roles held beyond the plain "user" role. */
export const userRoles = pgTable(
  "user_roles",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

/** One-time links to set a password (new users, first administrator). Stores a hash only. */
export const passwordTokens = pgTable("password_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
});

/** Server-side sessions. The cookie holds the token; the table holds its SHA-256 only. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Customer the session acts for: the user's own, or any for provider staff. */
    actingCustomerId: uuid("acting_customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * Failed sign-ins, for the limits per email (5 in 5 minutes) and per client address (kept in the
 * database so every API process sees them). A row is written before the password is checked and
 * deleted when it was right, so concurrent attempts cannot check more passwords than the limit.
 */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: id(),
    email: text("email").notNull(),
    /** The client's address as the API saw it (TRUST_PROXY decides whether X-Forwarded-For counts). */
    clientAddress: text("client_address"),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [
    index("login_failures_email_at_idx").on(t.email, t.at),
    index("login_failures_address_at_idx").on(t.clientAddress, t.at),
  ],
);

export const featureFlags = pgTable(
  "feature_flags",
  {
    customerId: customerRef(),
    key: text("key").notNull(),
    enabled: boolean("enabled").notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.key] })],
);

/** Tokens that let a line's system POST part records for one plant's ingestor. Stores a hash only. */
export const ingestTokens = pgTable(
  "ingest_tokens",
  {
    id: id(),
    customerId: customerRef(),
    ingestorId: uuid("ingestor_id")
      .notNull()
      .references(() => ingestors.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters, so administrators can tell tokens apart. */
    prefix: text("prefix").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("ingest_tokens_ingestor_idx").on(t.ingestorId)],
);

/**
 * The MQTT credential of a plant's ingestor on the embedded broker: username = the ingestor id,
 * the password only as its SHA-256 (a 256-bit random secret needs no slow hash). Rotating
 * replaces the hash, so the old password stops working at once.
 */
export const mqttCredentials = pgTable("mqtt_credentials", {
  ingestorId: uuid("ingestor_id")
    .primaryKey()
    .references(() => ingestors.id, { onDelete: "cascade" }),
  customerId: customerRef(),
  passwordHash: text("password_hash").notNull(),
  passwordSetAt: ts("password_set_at").notNull().defaultNow(),
  lastConnectedAt: ts("last_connected_at"),
});

/** Messages the ingestor could not store, with the reason; visible to administrators. */
export const deadLetters = pgTable(
  "dead_letters",
  {
    id: id(),
    customerId: customerRef(),
    ingestorId: uuid("ingestor_id")
      .notNull()
      .references(() => ingestors.id, { onDelete: "cascade" }),
    dataSourceId: uuid("data_source_id").references(() => dataSources.id, { onDelete: "set null" }),
    topic: text("topic"),
    /** The payload as received, cut to 64 KiB. */
    payload: text("payload").notNull(),
    reason: text("reason").notNull(),
    receivedAt: ts("received_at").notNull().defaultNow(),
  },
  (t) => [index("dead_letters_source_idx").on(t.dataSourceId, t.receivedAt)],
);

/** A sample of each data source's latest messages, for the insight-mapping page. */
export const dataSourceMessages = pgTable(
  "data_source_messages",
  {
    id: id(),
    dataSourceId: uuid("data_source_id")
      .notNull()
      .references(() => dataSources.id, { onDelete: "cascade" }),
    topic: text("topic").notNull(),
    payload: text("payload").notNull(),
    receivedAt: ts("received_at").notNull().defaultNow(),
  },
  (t) => [index("data_source_messages_source_idx").on(t.dataSourceId, t.receivedAt)],
);

// ── Monitoring (design/monitoring.md) ───────────────────────────────────────────────────────

/**
 * A monitor: what it watches (filter), how often, and its schedule lease. `filter` holds the
 * spec's monitor_filter (signal_uuids, signal_group_uuids, part_attributes, sample_size,
 * pass_fail_filter, evaluation_ratio, part_numbers, part_groups, op_count); `filter_md5` is the
 * md5 of its canonical JSON and identifies duplicate configurations on a line.
 */
export const monitors = pgTable(
  "monitors",
  {
    id: id(),
    customerId: customerRef(),
    plantId: uuid("plant_id")
      .notNull()
      .references(() => plants.id, { onDelete: "cascade" }),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type", { enum: MONITOR_TYPES }).notNull(),
    active: boolean("active").notNull().default(false),
    /** Minutes between evaluations (5 to 1440). */
    frequency: integer("frequency").notNull(),
    notes: text("notes").notNull().default(""),
    alertThreshold: text("alert_threshold", { enum: ALERT_THRESHOLDS }).notNull().default("medium"),
    useExcludedPartIds: boolean("use_excluded_part_ids").notNull().default(false),
    useExcludedModelNumbers: boolean("use_excluded_model_numbers").notNull().default(false),
    filter: jsonb("filter").notNull(),
    filterMd5: text("filter_md5").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    /** The next scheduled slot; the worker claims monitors whose slot is due. */
    nextRunAt: ts("next_run_at"),
    /** Row lease of the worker evaluating it: taken over by another once expired. */
    leaseOwner: text("lease_owner"),
    leaseUntil: ts("lease_until"),
    lastEvaluatedAt: ts("last_evaluated_at"),
    lastState: text("last_state", { enum: EVALUATION_STATES }),
  },
  (t) => [
    uniqueIndex("monitors_line_type_name_uq").on(t.lineId, t.type, t.name),
    index("monitors_line_md5_idx").on(t.lineId, t.filterMd5),
    index("monitors_due_idx").on(t.nextRunAt).where(sql`${t.active}`),
  ],
);

/** A monitor's alert rules (one row per type); with none active every breach fires. */
export const monitorRules = pgTable(
  "monitor_rules",
  {
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    type: text("type", { enum: RULE_TYPES }).notNull(),
    active: boolean("active").notNull().default(false),
    runs: integer("runs"),
    breaches: integer("breaches"),
    seconds: integer("seconds"),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.type] })],
);

/** One evaluation of a monitor for one scheduled slot: the (monitor, slot) pair is stored once. */
export const evaluations = pgTable(
  "evaluations",
  {
    id: id(),
    customerId: customerRef(),
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    slot: ts("slot").notNull(),
    evaluatedAt: ts("evaluated_at").notNull().defaultNow(),
    state: text("state", { enum: EVALUATION_STATES }).notNull(),
    reason: text("reason"),
    score: doublePrecision("score"),
    threshold: doublePrecision("threshold"),
    trainingSize: integer("training_size"),
    evaluationSize: integer("evaluation_size"),
    /** Newest record time in the window: "nothing new since the previous evaluation" compares it. */
    lastRecordTs: ts("last_record_ts"),
    /** Statistic-specific details (means, sds, UCL, p-value, top contributing signals, Cpk…). */
    details: jsonb("details"),
  },
  (t) => [uniqueIndex("evaluations_monitor_slot_uq").on(t.monitorId, t.slot)],
);

/** An alert of a monitor: open while firings continue, resolved by itself or by a user. */
export const alerts = pgTable(
  "alerts",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    monitorId: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    state: text("state", { enum: ALERT_STATES }).notNull().default("OPEN"),
    openedAt: ts("opened_at").notNull(),
    lastSeenAt: ts("last_seen_at").notNull(),
    count: integer("count").notNull().default(1),
    /** Which rule fired first ("breach" when no rule is active). */
    rule: text("rule").notNull(),
    score: doublePrecision("score"),
    threshold: doublePrecision("threshold"),
    /** Evaluations in a row without a breach since the last firing (3 resolve it). */
    cleanStreak: integer("clean_streak").notNull().default(0),
    resolvedAt: ts("resolved_at"),
    cause: text("cause"),
    /** The ETQ Reliance document created for it: a retry never creates a second one. */
    relianceDocumentId: text("reliance_document_id"),
  },
  (t) => [
    index("alerts_line_opened_idx").on(t.lineId, t.openedAt),
    uniqueIndex("alerts_one_open_per_monitor_uq").on(t.monitorId).where(sql`${t.state} <> 'RESOLVED'`),
  ],
);

/** Every change of an alert, with who and when. */
export const alertEvents = pgTable(
  "alert_events",
  {
    id: id(),
    alertId: uuid("alert_id")
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    at: ts("at").notNull().defaultNow(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind", { enum: ALERT_EVENT_KINDS }).notNull(),
    comment: text("comment"),
    cause: text("cause"),
    evaluationId: uuid("evaluation_id"),
  },
  (t) => [index("alert_events_alert_idx").on(t.alertId, t.at)],
);

/** Durable outbox: one row per alert and channel, written in the alert's transaction. */
export const notificationOutbox = pgTable(
  "notification_outbox",
  {
    id: id(),
    customerId: customerRef(),
    alertId: uuid("alert_id")
      .notNull()
      .references(() => alerts.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: NOTIFICATION_CHANNELS }).notNull(),
    state: text("state", { enum: OUTBOX_STATES }).notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    leaseUntil: ts("lease_until"),
    lastError: text("last_error"),
    deliveredAt: ts("delivered_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("notification_outbox_alert_channel_uq").on(t.alertId, t.channel),
    index("notification_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.state} = 'PENDING'`),
  ],
);

/** Every delivery attempt, visible on the alert. */
export const notificationAttempts = pgTable(
  "notification_attempts",
  {
    id: id(),
    outboxId: uuid("outbox_id")
      .notNull()
      .references(() => notificationOutbox.id, { onDelete: "cascade" }),
    at: ts("at").notNull().defaultNow(),
    httpStatus: integer("http_status"),
    error: text("error"),
    durationMs: integer("duration_ms"),
  },
  (t) => [index("notification_attempts_outbox_idx").on(t.outboxId, t.at)],
);

/** Microsoft Teams Workflows webhook per line; the URL is a secret, stored encrypted. */
export const teamsWebhooks = pgTable("teams_webhooks", {
  id: id(),
  customerId: customerRef(),
  plantId: uuid("plant_id")
    .notNull()
    .references(() => plants.id, { onDelete: "cascade" }),
  lineId: uuid("line_id")
    .notNull()
    .unique()
    .references(() => lines.id, { onDelete: "cascade" }),
  urlEncrypted: text("url_encrypted").notNull(),
  /** What may be shown of the URL: its host. */
  urlHost: text("url_host").notNull(),
  lastModifiedDateTime: ts("last_modified_date_time").notNull().defaultNow(),
});

/** ETQ Reliance connection per line; the client secret is write-only and stored encrypted. */
export const relianceConfigs = pgTable("reliance_configs", {
  id: id(),
  customerId: customerRef(),
  lineId: uuid("line_id")
    .notNull()
    .unique()
    .references(() => lines.id, { onDelete: "cascade" }),
  apiHost: text("api_host").notNull(),
  clientId: text("client_id").notNull(),
  clientSecretEncrypted: text("client_secret_encrypted").notNull(),
  tokenEndpoint: text("token_endpoint").notNull(),
  connectionStatus: text("connection_status", { enum: RELIANCE_CONNECTION_STATUSES }),
  updatedTime: ts("updated_time").notNull().defaultNow(),
});

/**
 * SPC limits per signal and model number ('*' = the default row); each limit is a formula that
 * may reference signals by id (packages/stats limit formulas).
 */
export const spcLimits = pgTable(
  "spc_limits",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
    modelNumber: text("model_number").notNull().default("*"),
    lslFormula: text("lsl_formula"),
    lclFormula: text("lcl_formula"),
    uclFormula: text("ucl_formula"),
    uslFormula: text("usl_formula"),
  },
  (t) => [uniqueIndex("spc_limits_signal_model_uq").on(t.signalId, t.modelNumber)],
);
