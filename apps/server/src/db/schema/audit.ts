// The audit trail (issue 18 §2): one row per configuration change, written in the change's own
// transaction. Append-only: no repository updates or deletes a row, and housekeeping never prunes
// the table; rows go only with their customer.

import type { TAuditAction, TAuditFields, TAuditResource } from "@linewatch/contracts";
import { boolean, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.js";
import { id, ts } from "./columns.js";
import { customerRef } from "./customers.js";

export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    customerId: customerRef(),
    at: ts("at").notNull().defaultNow(),
    /** Null once the user is deleted; actor_email keeps who it was. */
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorEmail: text("actor_email").notNull(),
    actorIsProviderStaff: boolean("actor_is_provider_staff").notNull(),
    resource: text("resource").$type<TAuditResource>().notNull(),
    resourceId: text("resource_id").notNull(),
    resourceName: text("resource_name").notNull(),
    action: text("action").$type<TAuditAction>().notNull(),
    plantId: uuid("plant_id"),
    lineId: uuid("line_id"),
    before: jsonb("before").$type<TAuditFields>(),
    after: jsonb("after").$type<TAuditFields>(),
  },
  (t) => [
    index("audit_log_customer_at_idx").on(t.customerId, t.at.desc(), t.id),
    index("audit_log_resource_idx").on(t.customerId, t.resource, t.resourceId, t.at.desc()),
    index("audit_log_actor_idx").on(t.customerId, t.actorUserId, t.at.desc()),
  ],
);
