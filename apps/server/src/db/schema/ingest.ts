// Ingestion: each plant's ingestor, its data sources (MQTT topics), tokens and logins, dead letters
// and message samples.
import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id, ts } from "./columns.js";
import { customerRef, plants } from "./customers.js";

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

// ── Monitoring (docs/monitoring.md) ───────────────────────────────────────────────────────
