// Database schema: one PostgreSQL dialect for PGlite (embedded) and PostgreSQL (DATABASE_URL), one
// file per domain. Every customer-owned row carries customer_id so every query can be scoped by the
// session's customer (docs/architecture.md "Domain model").

export * from "./audit.js";
export * from "./auth.js";
export * from "./customers.js";
export * from "./ingest.js";
export * from "./lines.js";
export * from "./monitoring.js";
export * from "./notifications.js";
export * from "./part-records.js";
