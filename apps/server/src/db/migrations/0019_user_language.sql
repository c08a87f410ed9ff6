-- The interface's language per user (issue 32 §4; docs/decisions/0317-interface-language-per-user.md):
-- "en" or "de" as the user chose it in the user menu; null (every existing user) follows the
-- browser's language. Adding a nullable column without a default rewrites no row.
ALTER TABLE "users" ADD COLUMN "language" text;
