CREATE TABLE "evidence_anchors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"anchored_at" timestamp with time zone NOT NULL,
	"payload" text NOT NULL,
	"public_key" text NOT NULL,
	"signature" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evidence_chain" (
	"chain" text NOT NULL,
	"seq" bigint NOT NULL,
	"organization_id" uuid NOT NULL,
	"source" text NOT NULL,
	"row_key" text NOT NULL,
	"op" text NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"content_version" smallint NOT NULL,
	"digest" "bytea",
	"content" jsonb,
	"hash" "bytea" NOT NULL,
	CONSTRAINT "evidence_chain_chain_seq_pk" PRIMARY KEY("chain","seq")
);
--> statement-breakpoint
ALTER TABLE "evidence_anchors" ADD CONSTRAINT "evidence_anchors_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evidence_anchors_org_idx" ON "evidence_anchors" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "evidence_chain_row_idx" ON "evidence_chain" USING btree ("source","row_key","chain","seq");--> statement-breakpoint
CREATE INDEX "evidence_chain_org_time_idx" ON "evidence_chain" USING btree ("organization_id","occurred_at","chain");--> statement-breakpoint
-- Tamper-evident evidence (issue 37 item 1, docs/decisions/evidence-chain.md).
--
-- 1. The database, not the caller, stamps every audit entry: when (now()) and who
--    (the server's `coldtrace.actor` setting of the transaction, kernel/audit.ts).
--    An entry without that setting is refused.
CREATE FUNCTION audit_events_stamp() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  actor jsonb := nullif(current_setting('coldtrace.actor', true), '')::jsonb;
BEGIN
  IF actor IS NULL OR coalesce(actor->>'name', '') = '' THEN
    RAISE EXCEPTION 'audit entry refused: the transaction names no actor (coldtrace.actor)'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  NEW.occurred_at := now();
  NEW.actor_user_id := (actor->>'userId')::uuid;
  NEW.actor_name := actor->>'name';
  NEW.actor_email := actor->>'email';
  NEW.client_type := actor->>'clientType';
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_stamp BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_stamp();
--> statement-breakpoint
-- 2. What is hashed of a row: the named columns of each table (content version 1),
--    one function per table (`evidence_content(row)`, chosen by the row's type), used
--    by the triggers and by the verification alike. A column added to a table later
--    changes no digest; hashing it needs version 2. Times as microseconds since 1970
--    (no time zone), floats in their shortest exact form (extra_float_digits 1, the
--    default, which the triggers set), a series chunk's values as PostgreSQL prints them.
CREATE FUNCTION evidence_time(t timestamptz) RETURNS bigint
LANGUAGE sql STABLE AS $$ SELECT (extract(epoch FROM t) * 1000000)::bigint $$;
--> statement-breakpoint
CREATE FUNCTION evidence_content(r audit_events) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', r.id, 'organization_id', r.organization_id,
    'occurred_at', evidence_time(r.occurred_at), 'actor_user_id', r.actor_user_id,
    'actor_name', r.actor_name, 'actor_email', r.actor_email, 'client_type', r.client_type,
    'action', r.action, 'entity_type', r.entity_type, 'entity_id', r.entity_id,
    'record_id', r.record_id, 'field', r.field, 'old_value', r.old_value,
    'new_value', r.new_value, 'reason', r.reason, 'request_id', r.request_id)
$$;
--> statement-breakpoint
CREATE FUNCTION evidence_content(r alarm_signatures) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', r.id, 'organization_id', r.organization_id,
    'alarm_id', r.alarm_id, 'record_id', r.record_id, 'user_id', r.user_id,
    'printed_name', r.printed_name, 'signed_at', evidence_time(r.signed_at),
    'meaning', r.meaning, 'comment', r.comment, 'client_type', r.client_type,
    'purpose', r.purpose)
$$;
--> statement-breakpoint
CREATE FUNCTION evidence_content(r record_dispositions) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', r.id, 'organization_id', r.organization_id,
    'record_id', r.record_id, 'decision', r.decision, 'comment', r.comment,
    'meaning', r.meaning, 'user_id', r.user_id, 'printed_name', r.printed_name,
    'signed_at', evidence_time(r.signed_at), 'client_type', r.client_type,
    'transit_reason', r.transit_reason)
$$;
--> statement-breakpoint
CREATE FUNCTION evidence_content(r alarms) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', r.id, 'organization_id', r.organization_id,
    'record_id', r.record_id, 'tag_id', r.tag_id, 'tag_serial_number', r.tag_serial_number,
    'created', evidence_time(r.created), 'kind', r.kind, 'above_or_below', r.above_or_below,
    'first_point_idx', r.first_point_idx, 'last_point_idx', r.last_point_idx,
    'degree_minutes', r.degree_minutes, 'start_time', evidence_time(r.start_time),
    'end_time', evidence_time(r.end_time), 'duration', r.duration,
    'high_threshold', r.high_threshold, 'low_threshold', r.low_threshold,
    'highest_recorded_temperature', r.highest_recorded_temperature,
    'lowest_recorded_temperature', r.lowest_recorded_temperature,
    'number_of_points', r.number_of_points, 'state', r.state,
    'closed_at', evidence_time(r.closed_at), 'closed_by_user_id', r.closed_by_user_id,
    'close_cause', r.close_cause, 'close_reason', r.close_reason,
    'superseded_by', r.superseded_by, 'expected_interval', r.expected_interval)
  || jsonb_build_object('acknowledged', r.acknowledged,
    'acknowledged_by_user_id', r.acknowledged_by_user_id,
    'acknowledged_at', evidence_time(r.acknowledged_at),
    'acknowledge_comment', r.acknowledge_comment,
    'acknowledge_client_type', r.acknowledge_client_type, 'dismissed', r.dismissed,
    'dismissed_by_user_id', r.dismissed_by_user_id,
    'dismissed_at', evidence_time(r.dismissed_at), 'dismiss_reason', r.dismiss_reason)
$$;
--> statement-breakpoint
CREATE FUNCTION evidence_content(r record_series_chunks) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('organization_id', r.organization_id, 'record_id', r.record_id,
    'chunk_no', r.chunk_no, 'temps', r.temps::text)
$$;
--> statement-breakpoint
CREATE FUNCTION evidence_content(r records) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', r.id, 'organization_id', r.organization_id,
    'tag_id', r.tag_id, 'tag_serial_number', r.tag_serial_number, 'tag_type', r.tag_type,
    'created', evidence_time(r.created), 'start_time_seconds', r.start_time_seconds,
    'stop_time', evidence_time(r.stop_time), 'start_delay', r.start_delay,
    'measurement_interval', r.measurement_interval, 'high_threshold', r.high_threshold,
    'low_threshold', r.low_threshold, 'cumulative_high_threshold', r.cumulative_high_threshold,
    'cumulative_low_threshold', r.cumulative_low_threshold,
    'cumulative_duration_high', r.cumulative_duration_high,
    'cumulative_duration_low', r.cumulative_duration_low,
    'num_consecutive_excursions', r.num_consecutive_excursions,
    'highest_recorded_temperature', r.highest_recorded_temperature,
    'lowest_recorded_temperature', r.lowest_recorded_temperature,
    'mean_kinetic_temp', r.mean_kinetic_temp)
  || jsonb_build_object('first_point', evidence_time(r.first_point),
    'last_point', evidence_time(r.last_point), 'number_of_points', r.number_of_points,
    'series_length', r.series_length, 'record_duration', r.record_duration,
    'product_designation', r.product_designation,
    'trip_begin_time', evidence_time(r.trip_begin_time),
    'trip_end_time', evidence_time(r.trip_end_time), 'trip_status', r.trip_status)
$$;
--> statement-breakpoint
CREATE FUNCTION evidence_digest(content jsonb) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$ SELECT sha256(convert_to(content::text, 'UTF8')) $$;
--> statement-breakpoint
-- 3. Appending to a chain, one writer at a time: a record's chain under a row lock
--    on the record (ingest holds it already), an organization's under one on the
--    organization (FOR NO KEY UPDATE: foreign-key checks are not held up). Row locks,
--    not lock-table entries, so one transaction may extend any number of chains. The
--    next number, and the hash of the previous entry's hash with this entry's fields
--    (the same formula as `entryHash` in modules/evidence/chain.ts). A record chain's
--    first entry also opens it in its organization's chain, so a record removed with
--    its chain is missed. A removed record's chain has no row to lock: two writers
--    at once would collide on the chain's key and one would fail, never fork it.
CREATE FUNCTION evidence_append(
  p_chain text, p_org uuid, p_source text, p_key text, p_op text, p_content jsonb, p_keep boolean
) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp AS $$
DECLARE
  prev_seq bigint;
  prev_hash bytea;
  next_seq bigint;
  at timestamptz := now();
  digest bytea := CASE WHEN p_content IS NULL THEN NULL ELSE evidence_digest(p_content) END;
BEGIN
  IF p_chain LIKE 'record:%' THEN
    PERFORM 1 FROM records WHERE id = substr(p_chain, 8)::bigint FOR NO KEY UPDATE;
  ELSE
    PERFORM 1 FROM organizations WHERE id = p_org FOR NO KEY UPDATE;
  END IF;
  -- Planned at each call (EXECUTE): a plan cached while the table was small reads the
  -- whole chain (a sort) once it is not, and stays cached for the connection's life.
  EXECUTE 'SELECT seq, hash FROM public.evidence_chain WHERE chain = $1 ORDER BY seq DESC LIMIT 1'
    INTO prev_seq, prev_hash USING p_chain;
  next_seq := coalesce(prev_seq, 0) + 1;
  INSERT INTO evidence_chain
    (chain, seq, organization_id, source, row_key, op, occurred_at, content_version,
     digest, content, hash)
  VALUES (p_chain, next_seq, p_org, p_source, p_key, p_op, at, 1, digest,
    CASE WHEN p_keep THEN p_content END,
    sha256(coalesce(prev_hash, ''::bytea) || convert_to(concat_ws(E'\n', p_chain,
      next_seq::text, p_org::text, p_source, p_key, p_op,
      ((extract(epoch FROM at) * 1000000)::bigint)::text, '1',
      coalesce(encode(digest, 'hex'), '')), 'UTF8')));
  IF next_seq = 1 AND p_chain LIKE 'record:%' THEN
    PERFORM evidence_append('org:' || p_org, p_org, 'chain', p_chain, 'I', NULL, false);
  END IF;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION evidence_append(text, uuid, text, text, text, jsonb, boolean) FROM PUBLIC;
--> statement-breakpoint
-- 4. The chain of a row (from its content): a record's own rows go to its chain,
--    the rest of the trail to the organization's; and its key in its table.
CREATE FUNCTION evidence_chain_of(source text, c jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN source = 'records' THEN 'record:' || (c ->> 'id')
    WHEN c ->> 'record_id' IS NOT NULL THEN 'record:' || (c ->> 'record_id')
    ELSE 'org:' || (c ->> 'organization_id')
  END
$$;
--> statement-breakpoint
CREATE FUNCTION evidence_key_of(source text, c jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE source
    WHEN 'record_series_chunks' THEN (c ->> 'record_id') || '/' || (c ->> 'chunk_no')
    ELSE c ->> 'id'
  END
$$;
--> statement-breakpoint
-- 5. The trigger of every evidence table: an entry per row written, changed (in a
--    hashed column: a record's last action or list caches are not evidence) or
--    removed. Alarms keep each version.
CREATE FUNCTION evidence_track() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp SET extra_float_digits = 1 AS $$
DECLARE
  c jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN c := evidence_content(OLD); ELSE c := evidence_content(NEW); END IF;
  IF TG_OP = 'UPDATE' AND c = evidence_content(OLD) THEN RETURN NULL; END IF;
  PERFORM evidence_append(
    evidence_chain_of(TG_TABLE_NAME, c), (c ->> 'organization_id')::uuid, TG_TABLE_NAME,
    evidence_key_of(TG_TABLE_NAME, c), left(TG_OP, 1),
    CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE c END, TG_TABLE_NAME = 'alarms');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_evidence AFTER INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
CREATE TRIGGER alarm_signatures_evidence AFTER INSERT ON alarm_signatures
  FOR EACH ROW EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
CREATE TRIGGER record_dispositions_evidence AFTER INSERT ON record_dispositions
  FOR EACH ROW EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
CREATE TRIGGER records_evidence AFTER INSERT OR DELETE ON records
  FOR EACH ROW EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
CREATE TRIGGER records_evidence_update AFTER UPDATE ON records
  FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
CREATE TRIGGER record_series_chunks_evidence AFTER INSERT OR DELETE ON record_series_chunks
  FOR EACH ROW EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
CREATE TRIGGER record_series_chunks_evidence_update AFTER UPDATE ON record_series_chunks
  FOR EACH ROW WHEN (OLD.temps IS DISTINCT FROM NEW.temps
    OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
CREATE TRIGGER alarms_evidence AFTER INSERT OR DELETE ON alarms
  FOR EACH ROW EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
CREATE TRIGGER alarms_evidence_update AFTER UPDATE ON alarms
  FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION evidence_track();
--> statement-breakpoint
-- 6. The chain and its anchors: no role changes or removes an entry.
CREATE FUNCTION evidence_chain_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER evidence_chain_no_update_delete BEFORE UPDATE OR DELETE ON evidence_chain
  FOR EACH ROW EXECUTE FUNCTION evidence_chain_refuse_change();
--> statement-breakpoint
CREATE TRIGGER evidence_chain_no_truncate BEFORE TRUNCATE ON evidence_chain
  FOR EACH STATEMENT EXECUTE FUNCTION evidence_chain_refuse_change();
--> statement-breakpoint
CREATE TRIGGER evidence_anchors_no_update_delete BEFORE UPDATE OR DELETE ON evidence_anchors
  FOR EACH ROW EXECUTE FUNCTION evidence_chain_refuse_change();
--> statement-breakpoint
CREATE TRIGGER evidence_anchors_no_truncate BEFORE TRUNCATE ON evidence_anchors
  FOR EACH STATEMENT EXECUTE FUNCTION evidence_chain_refuse_change();
--> statement-breakpoint
-- 7. The evidence already stored enters the chains once, in the order it was written.
SELECT set_config('extra_float_digits', '1', true);
--> statement-breakpoint
SELECT evidence_append(evidence_chain_of('records', c), (c ->> 'organization_id')::uuid,
  'records', evidence_key_of('records', c), 'I', c, false)
FROM (SELECT evidence_content(x) AS c FROM records x ORDER BY id) s;
--> statement-breakpoint
SELECT evidence_append(evidence_chain_of('record_series_chunks', c),
  (c ->> 'organization_id')::uuid, 'record_series_chunks',
  evidence_key_of('record_series_chunks', c), 'I', c, false)
FROM (SELECT evidence_content(x) AS c FROM record_series_chunks x
      ORDER BY record_id, chunk_no) s;
--> statement-breakpoint
SELECT evidence_append(evidence_chain_of('alarms', c), (c ->> 'organization_id')::uuid,
  'alarms', evidence_key_of('alarms', c), 'I', c, true)
FROM (SELECT evidence_content(x) AS c FROM alarms x ORDER BY id) s;
--> statement-breakpoint
SELECT evidence_append(evidence_chain_of('alarm_signatures', c),
  (c ->> 'organization_id')::uuid, 'alarm_signatures',
  evidence_key_of('alarm_signatures', c), 'I', c, false)
FROM (SELECT evidence_content(x) AS c FROM alarm_signatures x ORDER BY id) s;
--> statement-breakpoint
SELECT evidence_append(evidence_chain_of('record_dispositions', c),
  (c ->> 'organization_id')::uuid, 'record_dispositions',
  evidence_key_of('record_dispositions', c), 'I', c, false)
FROM (SELECT evidence_content(x) AS c FROM record_dispositions x ORDER BY id) s;
--> statement-breakpoint
SELECT evidence_append(evidence_chain_of('audit_events', c), (c ->> 'organization_id')::uuid,
  'audit_events', evidence_key_of('audit_events', c), 'I', c, false)
FROM (SELECT evidence_content(x) AS c FROM audit_events x ORDER BY id) s;
