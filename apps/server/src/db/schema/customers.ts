// Customers and their plants, with the feature flags that decide what each may do (architecture
// "Domain model").
import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id, ts } from "./columns.js";

/** The customer a row belongs to: every customer-owned row carries it, so every query can be scoped. */
export const customerRef = () =>
  uuid("customer_id")
    .notNull()
    .references(() => customers.id, { onDelete: "cascade" });

export const customers = pgTable("customers", {
  id: id(),
  name: text("name").notNull(),
  /** The provider's own company: its staff may act for any customer. */
  isProvider: boolean("is_provider").notNull().default(false),
  /** Customer-id override that shows the ETQ Reliance item without its flag (requirements.md settings §2.1). */
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
    /** A deactivated plant is kept with its lines and records but offered in no plant picker. */
    active: boolean("active").notNull().default(true),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  // Names are unique per customer ignoring letter case (issue 28 §1): the index, not a check
  // before the insert, is what holds under two creates at once.
  (t) => [uniqueIndex("plants_customer_name_ci_uq").on(t.customerId, sql`lower(${t.name})`)],
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

/**
 * A customer's data retention (issue 31 §2): days per kind of row, null for "keep for ever". No
 * row: the defaults of packages/contracts (RETENTION_DEFAULTS). Housekeeping deletes past them.
 */
export const retentionSettings = pgTable("retention_settings", {
  customerId: uuid("customer_id")
    .primaryKey()
    .references(() => customers.id, { onDelete: "cascade" }),
  partRecordsDays: integer("part_records_days"),
  evaluationsDays: integer("evaluations_days"),
  resolvedAlertsDays: integer("resolved_alerts_days"),
  auditLogDays: integer("audit_log_days"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
