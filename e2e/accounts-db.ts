import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import pg from 'pg';

/**
 * Direct access to the e2e server's embedded database (its data folder:
 * `E2E_DATA_DIR`, as `start-server.mjs` reads it, else `.e2e-data`), for
 * arranging what no screen creates yet (e.g. a user in a demo organization).
 */
const PORT = Number(process.env.E2E_PORT ?? 8123);

function databaseUrl(): string {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(import.meta.dirname, '..', '.e2e-data');
  const password = readFileSync(path.join(dataDir, 'postgres_password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${PORT + 1}/coldtrace`;
}

export interface E2eUser {
  id: string;
  username: string;
  email: string;
  password: string;
}

/**
 * A new member of a demo organization: by default a Viewer of the first one (not agreed
 * to the terms unless `agreed`); `organization` and `role` choose another (e.g. an
 * Administrator who is not a server administrator).
 */
export async function createUserInDb(
  opts: {
    password?: string;
    agreed?: boolean;
    firstName?: string;
    organization?: string;
    role?: string;
  } = {},
): Promise<E2eUser> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const username = `e2e_${suffix}`;
  const email = `${username}@example.test`;
  const password = opts.password ?? `e2e start password ${suffix}`;
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO users (username, email, first_name, last_name, password_hash)
       VALUES ($1, $2, $3, 'Tester', $4) RETURNING id`,
      [username, email, opts.firstName ?? 'Erin', await hash(password)],
    );
    const id = rows[0]!.id;
    await client.query(
      `INSERT INTO memberships (user_id, organization_id, role_id)
       SELECT $1, o.id, r.id FROM organizations o JOIN roles r ON r.organization_id = o.id
        WHERE o.name = $2 AND r.name = $3`,
      [id, opts.organization ?? 'Demo Organization', opts.role ?? 'Viewer'],
    );
    if (opts.agreed !== false) {
      await client.query(
        `INSERT INTO tos_agreements (user_id, tos_id)
         SELECT $1, id FROM terms_of_service WHERE active ORDER BY version DESC LIMIT 1`,
        [id],
      );
    }
    return { id, username, email, password };
  } finally {
    await client.end();
  }
}

/**
 * A welcome token for the user, stored as the server stores them (sha256 only),
 * as registering a user through Manage Users does; answers the link path.
 */
export async function welcomeLinkInDb(userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO password_tokens (user_id, token_hash, purpose, expires_at)
       VALUES ($1, $2, 'welcome', now() + interval '3 days')`,
      [userId, createHash('sha256').update(token).digest('hex')],
    );
  } finally {
    await client.end();
  }
  return `/welcome/${userId}/${token}`;
}

/**
 * Runs `work` on the e2e server's database as its superuser (for a test that must do
 * what only the database's owner could: edit evidence with the triggers off).
 */
export async function withDatabaseSuperuser<T>(
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
