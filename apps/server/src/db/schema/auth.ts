// Users, roles, sessions, password links, failed sign-ins and personal API tokens.

import { LANGUAGES, type TApiTokenScope } from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id, ts } from "./columns.js";
import { customerRef, customers, plants } from "./customers.js";
import { lines } from "./lines.js";

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
    /** The interface's language the user chose ("en", "de"); null follows the browser's (issue 32 §4). */
    language: text("language", { enum: LANGUAGES }),
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

/**
 * Personal API tokens (issue 33 §3, decision 0319): `Authorization: Bearer lwt_…` acts as the user,
 * for the user's own customer. The table holds the secret's SHA-256 only (a 256-bit random secret
 * needs no slow hash), found by its unique index; revoking deletes the row. They go with the user.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    customerId: customerRef(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The first characters of the secret, so the owner can tell tokens apart. */
    prefix: text("prefix").notNull(),
    scope: text("scope").$type<TApiTokenScope>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [uniqueIndex("api_tokens_token_hash_uq").on(t.tokenHash), index("api_tokens_user_idx").on(t.userId)],
);
