-- The audit trail is append-only for every role, the application's included:
-- rows can be inserted and read, never changed or removed.
CREATE FUNCTION audit_events_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate
  BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON audit_events FROM PUBLIC;

--> statement-breakpoint
-- Electronic signatures of alarm acknowledgements are append-only for every
-- role, the application's included (21 CFR Part 11: linked for good).
CREATE FUNCTION alarm_signatures_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'alarm_signatures is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER alarm_signatures_no_update_delete
  BEFORE UPDATE OR DELETE ON alarm_signatures
  FOR EACH ROW EXECUTE FUNCTION alarm_signatures_refuse_change();
--> statement-breakpoint
CREATE TRIGGER alarm_signatures_no_truncate
  BEFORE TRUNCATE ON alarm_signatures
  FOR EACH STATEMENT EXECUTE FUNCTION alarm_signatures_refuse_change();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON alarm_signatures FROM PUBLIC;
