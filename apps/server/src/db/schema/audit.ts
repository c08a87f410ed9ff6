// The audit trail (issue 18 §2): one row per configuration change, written in the change's own
// transaction. Append-only: no repository updates or deletes a row; rows go with their customer, and
// past the customer's retention when its administrators set one (default: for ever; the one
// delete is modules/retention/retention.repo.ts, docs/decisions/0301-retention-per-customer.md).

import type { TAuditAction, TAuditFields, TAuditResource } from "@linewatch/contracts";
import { boolean, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { id, ts } from "./columns.js";
import { customerRef } from "./customers.js";

export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    customerId: customerRef(),
    at: ts("at").notNull().defaultNow(),
    /**
     * The acting user's id, kept when the user is deleted (no foreign key: a user's deletion must
     * neither rewrite the records nor scan them); actor_email says who it was. Null for a change
     * made by no user.
     */
    actorUserId: uuid("actor_user_id"),
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
    // Each in the list's order (at, id) descending, after the filters it serves.
    index("audit_log_customer_at_idx").on(t.customerId, t.at.desc(), t.id.desc()),
    index("audit_log_resource_idx").on(t.customerId, t.resource, t.resourceId, t.at.desc(), t.id.desc()),
    index("audit_log_resource_type_idx").on(t.customerId, t.resource, t.at.desc(), t.id.desc()),
    index("audit_log_actor_idx").on(t.customerId, t.actorUserId, t.at.desc(), t.id.desc()),
  ],
);
