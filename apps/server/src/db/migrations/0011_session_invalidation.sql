-- Every API process keeps the sessions it resolved in memory (modules/auth/session-cache.ts) and
-- drops a user's entries when this channel names them: any change to a user, their roles, or one of
-- their sessions (deleted, or switched to another customer) notifies 'linewatch_auth' with the
-- user's id when its transaction commits, whichever process or tool made it.
CREATE FUNCTION "linewatch_auth_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('linewatch_auth', (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
  ELSE
    PERFORM pg_notify('linewatch_auth', (CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END)::text);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_auth_changed" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "linewatch_auth_changed"();--> statement-breakpoint
CREATE TRIGGER "user_roles_auth_changed" AFTER INSERT OR UPDATE OR DELETE ON "user_roles"
  FOR EACH ROW EXECUTE FUNCTION "linewatch_auth_changed"();--> statement-breakpoint
CREATE TRIGGER "sessions_auth_changed" AFTER DELETE OR UPDATE OF "acting_customer_id", "user_id" ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "linewatch_auth_changed"();
