-- The principal cache (identity/auth/principal-cache.ts, docs/decisions/list-performance.md
-- "Principal cache"): every change to what a session lookup reads (the
-- session's organization, expiry or existence, the user, memberships, roles,
-- terms of service and agreements) notifies coldtrace_principals in its own
-- transaction; each server process listens and empties its cache. A session's
-- last_seen_at (touched once a minute) does not notify.
CREATE FUNCTION notify_principals() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('coldtrace_principals', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_notify_principals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();--> statement-breakpoint
CREATE TRIGGER memberships_notify_principals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON memberships
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();--> statement-breakpoint
CREATE TRIGGER roles_notify_principals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();--> statement-breakpoint
CREATE TRIGGER terms_notify_principals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON terms_of_service
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();--> statement-breakpoint
CREATE TRIGGER tos_agreements_notify_principals AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tos_agreements
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();--> statement-breakpoint
CREATE TRIGGER sessions_notify_principals AFTER DELETE OR TRUNCATE OR UPDATE OF user_id, organization_id, expires_at ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_principals();
