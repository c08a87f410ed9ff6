// Monitoring (docs/monitoring.md): monitors, their rules, evaluations, alerts and alert events.
import {
  ALERT_EVENT_KINDS,
  ALERT_KINDS,
  ALERT_STATES,
  ALERT_THRESHOLDS,
  EVALUATION_STATES,
  MONITOR_TYPES,
  RULE_TYPES,
} from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./auth.js";
import { id, ts } from "./columns.js";
import { customerRef, plants } from "./customers.js";
import { lines } from "./lines.js";

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

/**
 * One evaluation of a monitor for one scheduled slot: the (monitor, slot) pair is stored once.
 * Partitioned by month of its slot (migration 0017, db/partitions.ts): the primary key holds the
 * partition key, so it is (id, slot); an id alone is still unique (random).
 */
export const evaluations = pgTable(
  "evaluations",
  {
    id: uuid("id").notNull().defaultRandom(),
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
  (t) => [
    primaryKey({ columns: [t.id, t.slot] }),
    uniqueIndex("evaluations_monitor_slot_uq").on(t.monitorId, t.slot),
  ],
);

/**
 * An alert of a monitor (kind 'monitor'), or of a line whose records stopped for longer than its
 * No Data Alert hours (kind 'no_data', no monitor): open while firings continue, resolved by
 * itself or by a user.
 */
export const alerts = pgTable(
  "alerts",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ALERT_KINDS }).notNull().default("monitor"),
    /** Null for a no-data alert. */
    monitorId: uuid("monitor_id").references(() => monitors.id, { onDelete: "cascade" }),
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
    // The plant overview's open alerts per line (issue 18 §3): without it each line's whole alert
    // history, resolved alerts included, is read to find the few open ones.
    index("alerts_open_line_idx").on(t.lineId, t.openedAt).where(sql`${t.state} <> 'RESOLVED'`),
    uniqueIndex("alerts_one_open_per_monitor_uq").on(t.monitorId).where(sql`${t.state} <> 'RESOLVED'`),
    // Retention's resolved alerts past their horizon, per customer (issue 31 §2).
    index("alerts_resolved_customer_idx").on(t.customerId, t.resolvedAt).where(sql`${t.state} = 'RESOLVED'`),
    uniqueIndex("alerts_one_open_no_data_per_line_uq")
      .on(t.lineId)
      .where(sql`${t.kind} = 'no_data' and ${t.state} <> 'RESOLVED'`),
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
  (t) => [
    index("alert_events_alert_idx").on(t.alertId, t.at),
    // Retention keeps an evaluation an alert refers to (its evidence): without it each batch of
    // evaluations reads every alert event to find the few that refer to it (issue 31 §2).
    index("alert_events_evaluation_idx").on(t.evaluationId).where(sql`${t.evaluationId} is not null`),
  ],
);
