import { sql } from 'drizzle-orm';
import pg from 'pg';
import { JOB_SCHEMA } from '../jobs/queue';
import type { Db } from './client';

/**
 * The two database roles (issue 10, "The database role"):
 *
 * - the OWNER role owns every table, sequence, function and schema; it runs
 *   the migrations (Drizzle's and pg-boss's) and `applyGrants`, nothing else;
 * - the APPLICATION role (every query the server makes at run time) owns
 *   nothing, is not a superuser, may not create anything in the schemas, and
 *   has only SELECT, INSERT, UPDATE, DELETE on the app's tables, USAGE on
 *   their sequences, and on the append-only evidence tables only SELECT and
 *   INSERT. It therefore cannot switch the append-only triggers off
 *   (`session_replication_role` needs a superuser, `ALTER TABLE ... DISABLE
 *   TRIGGER` and `DROP TRIGGER` need the owner) nor change a row.
 *
 * With the embedded PostgreSQL both roles are made by `ensureEmbeddedRoles`
 * (the superuser is used for that only). With DATABASE_URL the operator makes
 * them (docs/security.md) and gives the owner as MIGRATION_DATABASE_URL.
 */

/** Role names of the embedded PostgreSQL (and of the test cluster). */
export const EMBEDDED_OWNER_ROLE = 'coldtrace_owner';
export const EMBEDDED_APP_ROLE = 'coldtrace_app';

/**
 * Evidence: rows may be inserted and read by the application, never changed or
 * removed. The one place to list a new append-only table (`applyGrants`).
 * - audit_events: the audit trail (also refused to every role by a trigger, migration 0003);
 * - alarm_signatures: electronic signatures of acknowledgements (trigger too);
 * - notification_log: the record of every alarm e-mail written (spec section 3);
 * - record_dispositions: signed release decisions;
 * - evidence_anchors: the signed heads of the evidence chain (trigger too);
 * - audit_review_marks, audit_review_closures: the audit-trail review;
 * - calibration_certificate_files: the calibration labs' PDFs (a replacement is a new row).
 * Alarms themselves are not here: re-evaluation updates them in place and the
 * acknowledgement is written onto them; every version is kept in the evidence
 * chain (below), and their signature is the evidence.
 */
export const APPEND_ONLY_TABLES = [
  'audit_events',
  'alarm_signatures',
  'notification_log',
  'record_dispositions',
  'evidence_anchors',
  'audit_review_marks',
  'audit_review_closures',
  'calibration_certificate_files',
] as const;

/**
 * Evidence the server changes but never removes: the application may not delete
 * an alarm or a series chunk (a record's removal still takes them, as the owner's
 * cascade). Every change to them is an entry of the evidence chain.
 */
export const NEVER_DELETED_TABLES = ['alarms', 'record_series_chunks'] as const;

/**
 * Written by the database alone (the evidence chain's triggers, migration 0034):
 * the application only reads it.
 */
export const DATABASE_WRITTEN_TABLES = ['evidence_chain'] as const;

/** Schemas whose tables the application reads and writes. Drizzle's `drizzle` schema is not among them. */
const APP_SCHEMAS = ['public', JOB_SCHEMA] as const;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Give `appRole` exactly the rights it needs (run by the owner after every
 * migration, under the start-up lock; idempotent). A table added by a later
 * migration is covered by the next start; one created at run time by pg-boss
 * (a queue's partition, through the owner's `create_queue`) by the default
 * privileges.
 */
export async function applyGrants(db: Db, appRole: string): Promise<void> {
  const app = ident(appRole);
  const statements = [
    `DO $$ BEGIN EXECUTE format('GRANT CONNECT ON DATABASE %I TO ${app.replaceAll("'", "''")}', current_database()); END $$`,
    // Nobody but the owner creates objects in the app's schemas (PostgreSQL < 15 let PUBLIC create in public).
    `REVOKE CREATE ON SCHEMA public FROM PUBLIC`,
    `REVOKE ALL ON SCHEMA drizzle FROM ${app}`,
    // Drizzle's journal, read only: an instance with the application role alone checks
    // that no migration is pending (`pendingMigrations`, db/migrate.ts).
    `GRANT USAGE ON SCHEMA drizzle TO ${app}`,
    `GRANT SELECT ON drizzle.__drizzle_migrations TO ${app}`,
  ];
  for (const schema of APP_SCHEMAS) {
    const s = ident(schema);
    statements.push(
      `REVOKE CREATE ON SCHEMA ${s} FROM ${app}`,
      `GRANT USAGE ON SCHEMA ${s} TO ${app}`,
      `REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA ${s} FROM ${app}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${app}`,
      `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${app}`,
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${app}`,
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT USAGE, SELECT ON SEQUENCES TO ${app}`,
    );
  }
  // Evidence: read and append only.
  statements.push(
    `REVOKE UPDATE, DELETE, TRUNCATE ON ${APPEND_ONLY_TABLES.map(ident).join(', ')} FROM ${app}`,
    `REVOKE DELETE, TRUNCATE ON ${NEVER_DELETED_TABLES.map(ident).join(', ')} FROM ${app}`,
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${DATABASE_WRITTEN_TABLES.map(ident).join(', ')} FROM ${app}`,
  );
  // pg-boss creates a table per queue (a partition of its job table) when the app
  // first starts a worker for it: the app runs that one function with the owner's rights.
  statements.push(
    `ALTER FUNCTION ${ident(JOB_SCHEMA)}.create_queue(text, json) SECURITY DEFINER SET search_path = pg_catalog, pg_temp`,
    `REVOKE ALL ON FUNCTION ${ident(JOB_SCHEMA)}.delete_queue(text) FROM PUBLIC`,
  );
  for (const statement of statements) await db.execute(sql.raw(statement));
}

/** The role a connection logs in as, whether it is a superuser, and how many relations it owns. */
export async function currentRole(pool: pg.Pool) {
  const { rows } = await pool.query<{ name: string; superuser: boolean; owns: number }>(
    `SELECT current_user AS name, r.rolsuper AS superuser,
            (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relowner = r.oid AND n.nspname NOT LIKE 'pg\\_%'
                AND n.nspname <> 'information_schema') AS owns
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  return rows[0]!;
}

/**
 * What the owner and application connections log in as, and what is wrong
 * with the application role (warnings for the start-up log): a superuser, or
 * a role that owns tables, can switch the append-only triggers off.
 */
export async function roleProblems(
  ownerPool: pg.Pool,
  appPool: pg.Pool,
): Promise<{ appRole: string; sameRole: boolean; warnings: string[] }> {
  const [owner, app] = await Promise.all([currentRole(ownerPool), currentRole(appPool)]);
  const warnings: string[] = [];
  if (app.superuser) {
    warnings.push(
      `The application role '${app.name}' (DATABASE_URL) is a superuser: it can switch the ` +
        'append-only audit trail off. Use a role without SUPERUSER (docs/security.md).',
    );
  }
  if (app.name !== owner.name && app.owns > 0) {
    warnings.push(
      `The application role '${app.name}' (DATABASE_URL) owns ${app.owns} tables, sequences or ` +
        'indexes: an owner can switch the append-only triggers off. Make the owner role ' +
        `(MIGRATION_DATABASE_URL) own them: REASSIGN OWNED BY ${app.name} TO ${owner.name}.`,
    );
  }
  return { appRole: app.name, sameRole: app.name === owner.name, warnings };
}

export interface RolePasswords {
  owner: string;
  app: string;
}

/**
 * As the superuser of the embedded PostgreSQL: make (or update) the owner and
 * application roles, make `database` (owned by the owner role), and move the
 * objects an earlier version created as the superuser to the owner role.
 */
export async function ensureEmbeddedRoles(
  superuserBaseUrl: string,
  database: string,
  passwords: RolePasswords,
): Promise<void> {
  await withClient(`${superuserBaseUrl}/postgres`, async (client) => {
    for (const [role, password] of [
      [EMBEDDED_OWNER_ROLE, passwords.owner],
      [EMBEDDED_APP_ROLE, passwords.app],
    ] as const) {
      const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      const verb = exists.rowCount === 0 ? 'CREATE' : 'ALTER';
      await client.query(
        `${verb} ROLE ${ident(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION ` +
          `NOBYPASSRLS PASSWORD ${client.escapeLiteral(password)}`,
      );
    }
    const found = await client.query<{ owner: string }>(
      'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
      [database],
    );
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${ident(database)} OWNER ${ident(EMBEDDED_OWNER_ROLE)}`);
    } else if (found.rows[0]!.owner !== EMBEDDED_OWNER_ROLE) {
      await client.query(
        `ALTER DATABASE ${ident(database)} OWNER TO ${ident(EMBEDDED_OWNER_ROLE)}`,
      );
    }
  });
  await withClient(`${superuserBaseUrl}/${database}`, (client) =>
    client.query(reassignToOwnerSql(EMBEDDED_OWNER_ROLE)).then(() => undefined),
  );
}

/**
 * Every schema, table, view, sequence, function and type the connected user
 * (the superuser) owns outside PostgreSQL's own schemas becomes the owner
 * role's: a data folder of an earlier version, whose tables the superuser made.
 * (`REASSIGN OWNED BY postgres` refuses: the bootstrap superuser owns system objects.)
 */
export function reassignToOwnerSql(owner: string): string {
  const to = ident(owner).replaceAll("'", "''");
  const userSchema = `n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'`;
  return `DO $$
DECLARE
  me oid := (SELECT oid FROM pg_roles WHERE rolname = current_user);
  r record;
BEGIN
  FOR r IN SELECT n.nspname FROM pg_namespace n
            WHERE n.nspowner = me AND ${userSchema} AND n.nspname <> 'public' LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO ${to}', r.nspname);
  END LOOP;
  -- Tables carry their indexes and the sequences of their serial and identity columns along.
  FOR r IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relowner = me AND ${userSchema} AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
              AND NOT (c.relkind = 'S' AND EXISTS (
                    SELECT 1 FROM pg_depend d
                     WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                       AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')))
  LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO ${to}', r.name);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS name, p.prokind FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE p.proowner = me AND ${userSchema} AND p.prokind IN ('f', 'p') LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO ${to}', r.name);
  END LOOP;
  FOR r IN SELECT t.oid::regtype AS name, t.typtype FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
            WHERE t.typowner = me AND ${userSchema} AND t.typtype IN ('e', 'd', 'r')
  LOOP
    IF r.typtype = 'd' THEN
      EXECUTE format('ALTER DOMAIN %s OWNER TO ${to}', r.name);
    ELSE
      EXECUTE format('ALTER TYPE %s OWNER TO ${to}', r.name);
    END IF;
  END LOOP;
END $$`;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
