// Notifications: the outbox and its delivery attempts, and the integrations they go to (Teams, ETQ
// Reliance).
import { NOTIFICATION_CHANNELS, OUTBOX_STATES, RELIANCE_CONNECTION_STATUSES } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id, ts } from "./columns.js";
import { customerRef, plants } from "./customers.js";
import { lines } from "./lines.js";
import { alerts } from "./monitoring.js";

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

/** The outcome of the last "Send test message" / "Test connection"; cleared when the integration is saved. */
const lastTestColumns = () => ({
  lastTestAt: ts("last_test_at"),
  lastTestOk: boolean("last_test_ok"),
  lastTestHttpStatus: integer("last_test_http_status"),
  lastTestMessage: text("last_test_message"),
});

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
  ...lastTestColumns(),
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
  ...lastTestColumns(),
});
