import { auditReviewClosures, auditReviewMarks } from '../src/db/schema-audit-review';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openDatabase } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import {
  APPEND_ONLY_TABLES,
  applyGrants,
  DATABASE_WRITTEN_TABLES,
  NEVER_DELETED_TABLES,
  EMBEDDED_APP_ROLE,
  EMBEDDED_OWNER_ROLE,
  ensureEmbeddedRoles,
  roleProblems,
} from '../src/db/roles';
import { alarmMailEvents, notificationLog } from '../src/db/schema-alarm-mail';
import { alarmSignatures } from '../src/db/schema-notifications';
import { calibrationCertificateFiles, calibrationCertificates } from '../src/db/schema-reports';
import { recordDispositions } from '../src/db/schema-review';
import { recordAudit } from '../src/kernel/audit';
import { anchorOrganization, signingKeyFrom } from '../src/modules/evidence';
import { createTestApp, uid, type TestApp } from './helpers';
import { recordFactories } from './record-factories';

/**
 * The application role (what the server connects as) cannot alter the
 * evidence: not by switching the append-only triggers off
 * (`session_replication_role`, `ALTER TABLE ... DISABLE TRIGGER`,
 * `DROP TRIGGER`), not by a plain UPDATE, DELETE or TRUNCATE, not by taking
 * ownership or another role. It owns nothing and creates nothing.
 */

interface Refusal {
  code: string | undefined;
  message: string;
}

describe('the application role [FEAT-APP-ROLE, RULE-AUDIT-3]', () => {
  let t: TestApp;
  let orgId: string;

  /** The test organization's rows of every append-only or tracked table, read as the owner. */
  const evidence = async () => {
    const out: Record<string, unknown[]> = {};
    for (const table of APPEND_ONLY_TABLES) {
      const { rows } = await t.ownerHandle.pool.query(
        `SELECT * FROM ${table} WHERE organization_id = $1 ORDER BY id`,
        [orgId],
      );
      out[table] = rows;
    }
    for (const [table, order] of [
      ['alarms', 'id'],
      ['record_series_chunks', 'record_id, chunk_no'],
      ['evidence_chain', 'chain, seq'],
    ] as const) {
      const { rows } = await t.ownerHandle.pool.query(
        `SELECT * FROM ${table} WHERE organization_id = $1 ORDER BY ${order}`,
        [orgId],
      );
      out[table] = rows;
    }
    return out;
  };

  /**
   * Runs `statements` in one session of the application role (a connection of
   * its own, thrown away after), then tries to erase the evidence in that same
   * session: whatever the statements did, that must still be refused.
   */
  const attempt = async (...statements: string[]): Promise<Refusal[]> => {
    const client = await t.handle.pool.connect();
    const refusals: Refusal[] = [];
    try {
      for (const statement of [
        ...statements,
        ...APPEND_ONLY_TABLES.map((table) => `DELETE FROM ${table}`),
      ]) {
        try {
          await client.query(statement);
          refusals.push({ code: undefined, message: `'${statement}' succeeded` });
        } catch (err) {
          const e = err as { code?: string; message: string };
          refusals.push({ code: e.code, message: `${statement}: ${e.message}` });
        }
      }
    } finally {
      client.release(true);
    }
    return refusals;
  };

  beforeAll(async () => {
    t = await createTestApp();
    orgId = (await t.createOrg()).id;
    const f = recordFactories(t.db);
    const record = await f.record({ id: orgId });
    const alarm = await f.alarm(record);
    // The application may append to the evidence (and read it).
    await recordAudit(
      t.db,
      { organizationId: orgId, actor: { userId: null, name: 'Ada Quality', clientType: 'WEB' } },
      [{ action: 'record.shipment.update', entityType: 'record', entityId: record.id }],
    );
    await t.db.insert(alarmSignatures).values({
      organizationId: orgId,
      alarmId: alarm.id,
      recordId: record.id,
      userId: '00000000-0000-4000-8000-000000000001',
      printedName: 'Ada Quality',
      signedAt: new Date(),
      meaning: 'REVIEWED',
      comment: 'within budget',
      clientType: 'WEB',
    });
    await t.db.insert(recordDispositions).values({
      organizationId: orgId,
      recordId: record.id,
      decision: 'RELEASED',
      comment: 'released',
      meaning: 'APPROVED',
      userId: '00000000-0000-4000-8000-000000000001',
      printedName: 'Ada Quality',
      signedAt: new Date(),
      clientType: 'WEB',
    });
    const [event] = await t.db
      .insert(alarmMailEvents)
      .values({
        organizationId: orgId,
        recordId: record.id,
        notificationType: 'Alarm',
        eventKey: `alarm:${alarm.id}`,
        occurredAt: new Date(),
      })
      .returning();
    await t.db.insert(notificationLog).values({
      organizationId: orgId,
      notificationType: 'Alarm',
      timestamp: new Date(),
      recordId: record.id,
      eventId: event!.id,
      messageKey: 'person:1',
      status: 'sent',
    });
    await anchorOrganization(t.db, orgId, signingKeyFrom(t.config.secretKey));
    const reviewer = { userId: '00000000-0000-4000-8000-000000000001', name: 'Ada Quality' };
    await t.db.insert(auditReviewMarks).values({
      organizationId: orgId,
      auditEventId: 1,
      period: '2026-11',
      reviewedByUserId: reviewer.userId,
      reviewedByName: reviewer.name,
      comment: 'seen',
    });
    await t.db.insert(auditReviewClosures).values({
      organizationId: orgId,
      period: '2026-11',
      userId: reviewer.userId,
      printedName: reviewer.name,
      comment: 'month reviewed',
      clientType: 'WEB',
      entries: 1,
      reviewed: 1,
    });
    const [certificate] = await t.db
      .insert(calibrationCertificates)
      .values({ organizationId: orgId, modelName: 'XT1', createdByName: reviewer.name })
      .returning();
    await t.db.insert(calibrationCertificateFiles).values({
      organizationId: orgId,
      certificateId: certificate!.id,
      content: Buffer.from('%PDF-1.4\n%%EOF\n'),
      sha256: '0'.repeat(64),
      byteSize: 15,
      fileName: 'lab.pdf',
      uploadedByUserId: reviewer.userId,
      uploadedByName: reviewer.name,
    });
  });
  afterAll(() => t.close());

  it('appends to and reads the evidence [FEAT-EVIDENCE-CHAIN]', async () => {
    const rows = await evidence();
    for (const table of APPEND_ONLY_TABLES) expect(rows[table], table).toHaveLength(1);
  });

  it.each([
    ['session_replication_role', ['SET session_replication_role = replica']],
    [
      'ALTER TABLE ... DISABLE TRIGGER',
      [
        'ALTER TABLE audit_events DISABLE TRIGGER ALL',
        'ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete',
        'ALTER TABLE alarm_signatures DISABLE TRIGGER ALL',
        'ALTER TABLE alarm_signatures DISABLE TRIGGER USER',
      ],
    ],
    [
      'DROP TRIGGER',
      [
        'DROP TRIGGER audit_events_no_update_delete ON audit_events',
        'DROP TRIGGER audit_events_no_truncate ON audit_events',
        'DROP TRIGGER alarm_signatures_no_update_delete ON alarm_signatures',
        'DROP FUNCTION audit_events_refuse_change() CASCADE',
      ],
    ],
    [
      'UPDATE, DELETE, TRUNCATE',
      APPEND_ONLY_TABLES.flatMap((table) => [
        `UPDATE ${table} SET organization_id = organization_id`,
        `TRUNCATE ${table}`,
      ]),
    ],
    [
      'ownership or another role',
      [
        `ALTER TABLE audit_events OWNER TO ${EMBEDDED_APP_ROLE}`,
        `SET ROLE ${EMBEDDED_OWNER_ROLE}`,
        `ALTER ROLE ${EMBEDDED_APP_ROLE} SUPERUSER`,
        `CREATE TABLE public.mine (id int)`,
        `CREATE SCHEMA mine`,
        `CREATE OR REPLACE FUNCTION audit_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
      ],
    ],
    [
      'the evidence chain or removing tracked evidence',
      [
        `INSERT INTO evidence_chain (chain, seq, organization_id, source, row_key, op, content_version, hash)
           VALUES ('org:x', 999, gen_random_uuid(), 'audit_events', '1', 'I', 1, '\\x00')`,
        `SELECT evidence_append('org:x', gen_random_uuid(), 'audit_events', '1', 'I', NULL, false)`,
        `DELETE FROM alarms`,
        `DELETE FROM record_series_chunks`,
        `ALTER TABLE alarms DISABLE TRIGGER alarms_evidence`,
        `DROP TRIGGER records_evidence ON records`,
      ],
    ],
  ])('cannot alter the evidence by %s [FEAT-EVIDENCE-CHAIN]', async (_way, statements) => {
    const before = await evidence();
    const refusals = await attempt(...statements);
    for (const refusal of refusals) {
      // 42501 insufficient_privilege: "permission denied ..." or "must be owner of ...".
      expect(refusal.code, refusal.message).toBe('42501');
      expect(refusal.message).toMatch(/permission denied|must be owner/);
    }
    expect(await evidence()).toEqual(before);
  });

  it('owns nothing, is no superuser, and has only read and append on the evidence', async () => {
    const { rows } = await t.handle.pool.query<Record<string, unknown>>(
      `SELECT current_user AS name, r.rolsuper AS superuser, r.rolcreaterole AS createrole,
              r.rolcreatedb AS createdb, r.rolbypassrls AS bypassrls,
              (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS relations,
              (SELECT count(*)::int FROM pg_namespace n WHERE n.nspowner = r.oid) AS schemas,
              (SELECT count(*)::int FROM pg_proc p WHERE p.proowner = r.oid) AS functions,
              has_schema_privilege('public', 'CREATE') AS create_in_public
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows[0]).toEqual({
      name: EMBEDDED_APP_ROLE,
      superuser: false,
      createrole: false,
      createdb: false,
      bypassrls: false,
      relations: 0,
      schemas: 0,
      functions: 0,
      create_in_public: false,
    });
    for (const table of APPEND_ONLY_TABLES) {
      const privileges = await t.db.execute<Record<string, boolean>>(
        sql`SELECT has_table_privilege(${table}, 'SELECT') AS "select",
                   has_table_privilege(${table}, 'INSERT') AS "insert",
                   has_table_privilege(${table}, 'UPDATE') AS "update",
                   has_table_privilege(${table}, 'DELETE') AS "delete",
                   has_table_privilege(${table}, 'TRUNCATE') AS "truncate"`,
      );
      expect(privileges.rows[0], table).toEqual({
        select: true,
        insert: true,
        update: false,
        delete: false,
        truncate: false,
      });
    }
  });

  it('the start-up check warns of one role for both and of a superuser application role', async () => {
    const superuser = openDatabase(`${inject('pgBaseUrl')}/${t.databaseName}`, { max: 1 });
    try {
      expect(await roleProblems(t.ownerHandle.pool, t.handle.pool)).toEqual({
        appRole: EMBEDDED_APP_ROLE,
        sameRole: false,
        warnings: [],
      });
      expect(await roleProblems(t.ownerHandle.pool, t.ownerHandle.pool)).toMatchObject({
        sameRole: true,
      });
      const asSuperuser = await roleProblems(t.ownerHandle.pool, superuser.pool);
      expect(asSuperuser.warnings).toEqual([expect.stringMatching(/is a superuser/)]);
    } finally {
      await superuser.close();
    }
  });

  it('reads and writes every other table of the app and of the job queue', async () => {
    const appendOnly = sql.join(
      APPEND_ONLY_TABLES.map((table) => sql`${table}`),
      sql`, `,
    );
    // What it may not do besides: remove tracked evidence, write the evidence chain.
    const expected = [
      ...NEVER_DELETED_TABLES.map((table) => ({ table: `public.${table}`, right: 'DELETE' })),
      ...DATABASE_WRITTEN_TABLES.flatMap((table) =>
        ['INSERT', 'UPDATE', 'DELETE'].map((right) => ({ table: `public.${table}`, right })),
      ),
    ];
    const missing = await t.db.execute<{ table: string; right: string }>(
      sql`SELECT format('%I.%I', schemaname, tablename) AS "table", r AS "right"
            FROM pg_tables, unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE']) AS r
           WHERE schemaname IN ('public', 'pgboss')
             AND NOT (schemaname = 'public' AND tablename IN (${appendOnly}))
             AND NOT has_table_privilege(format('%I.%I', schemaname, tablename), r)`,
    );
    const { rows } = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname IN ('public', 'pgboss')`,
    );
    expect(rows[0]!.n).toBeGreaterThan(40);
    expect(missing.rows).toEqual(expect.arrayContaining(expected));
    expect(missing.rows).toHaveLength(expected.length);
  });
});

/**
 * A data folder of an earlier version: the superuser made and owns every
 * table. `ensureEmbeddedRoles` (run at every start of the embedded
 * PostgreSQL) hands them to the owner role, and the app then runs as the
 * application role.
 */
describe('a database of an earlier version (tables owned by the superuser) [FEAT-APP-ROLE, RULE-AUDIT-3]', () => {
  const name = `ct_old_${uid()}`;
  const superuser = inject('pgBaseUrl');
  const password = (url: string) => decodeURIComponent(new URL(url).password);
  let t: TestApp | undefined;

  afterAll(async () => {
    await t?.close();
    const client = new pg.Client({ connectionString: `${superuser}/postgres` });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it('is handed to the owner role, and the app works as the application role', async () => {
    const admin = new pg.Client({ connectionString: `${superuser}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const old = openDatabase(`${superuser}/${name}`, { max: 1 });
    try {
      await runMigrations(old.db);
    } finally {
      await old.close();
    }

    await ensureEmbeddedRoles(superuser, name, {
      owner: password(inject('pgOwnerBaseUrl')),
      app: password(inject('pgAppBaseUrl')),
    });

    const owner = openDatabase(`${inject('pgOwnerBaseUrl')}/${name}`, { max: 1 });
    try {
      const { rows } = await owner.pool.query<{ kind: string; name: string; owner: string }>(
        `SELECT 'relation' AS kind, c.relname AS name, pg_get_userbyid(c.relowner) AS owner
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname IN ('public', 'drizzle', 'pgboss')
         UNION ALL
         SELECT 'schema', nspname, pg_get_userbyid(nspowner) FROM pg_namespace
          WHERE nspname IN ('drizzle', 'pgboss')
         UNION ALL
         SELECT 'function', p.proname, pg_get_userbyid(p.proowner)
           FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname IN ('public', 'pgboss')
         UNION ALL
         SELECT 'type', t.typname, pg_get_userbyid(t.typowner)
           FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
          WHERE n.nspname IN ('public', 'pgboss')
         UNION ALL
         SELECT 'database', datname, pg_get_userbyid(datdba) FROM pg_database
          WHERE datname = current_database()`,
      );
      expect(rows.length).toBeGreaterThan(50);
      expect(rows.filter((r) => r.owner !== EMBEDDED_OWNER_ROLE)).toEqual([]);
      // What every start does next: migrations (none left) and the grants, as the owner.
      await runMigrations(owner.db);
      await applyGrants(owner.db, EMBEDDED_APP_ROLE);
    } finally {
      await owner.close();
    }

    t = await createTestApp({ databaseName: name });
    const { client } = await t.signIn({ role: 'Administrator' });
    expect((await client.get('/api/auth/session/')).statusCode).toBe(200);
    const refused = await t.handle.pool.query('ALTER TABLE audit_events DISABLE TRIGGER ALL').then(
      () => undefined,
      (err: { code?: string }) => err.code,
    );
    expect(refused).toBe('42501');
  });
});
