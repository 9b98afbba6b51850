import { createHash, randomBytes } from 'node:crypto';
import type {
  TApiKey,
  TApiKeyCreated,
  TApiKeyGenerate,
  TKeyAuthentication,
} from '@coldtrace/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Db } from '../../../db/client';
import { organizations, roles, users } from '../../../db/schema';
import { apiKeys, type ApiKeyRow } from '../../../db/schema-access';
import { AppError, invalidField, notFound } from '../../../kernel/errors';
import { isUuid } from '../../../kernel/ids';
import { constantTimeEqual } from '../auth/cookies';
import type { Principal } from '../../../kernel/principal';
import { permissionsIn } from '../auth/repository';

/**
 * API keys (docs/decisions/api-keys.md). A key is `ct_<prefix>_<secret>`:
 * 8 lowercase letters and digits, then 32 random bytes in base64url. Only
 * SHA-256 of the whole key is stored: the secret has 256 bits of entropy, so
 * a slow password KDF adds nothing, and verifying costs one hash (a few
 * microseconds) and a constant-time compare.
 */

const KEY_SHAPE = /^ct_([a-z0-9]{8})_([A-Za-z0-9_-]{43})$/;
const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Write last_used_at at most this often per key. */
const TOUCH_EVERY_MS = 60_000;

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

function newPrefix(): string {
  const bytes = randomBytes(8);
  return [...bytes].map((b) => PREFIX_ALPHABET[b % PREFIX_ALPHABET.length]).join('');
}

const presentKey = (row: ApiKeyRow): TApiKey => ({
  name: row.name,
  prefix: row.prefix,
  permissions: row.permissionNames as TApiKey['permissions'],
  created: row.created.toISOString(),
  read_only: row.readOnly,
  last_used: row.lastUsedAt?.toISOString() ?? null,
});

export async function listKeys(db: Db, organizationId: string): Promise<TApiKey[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .orderBy(apiKeys.created);
  return rows.map(presentKey);
}

/**
 * A new key of the session organization. Its permissions are those of
 * `role_id` (a role of that organization), else of the creator's own role,
 * never more than the creator holds there.
 */
export async function generateKey(
  db: Database,
  organizationId: string,
  principal: Principal,
  body: TApiKeyGenerate,
): Promise<TApiKeyCreated> {
  if (principal.kind !== 'session') {
    throw new AppError('FORBIDDEN', 'API keys are generated from a signed-in session.');
  }
  let permissionNames = [...principal.permissions];
  if (body.role_id !== undefined) {
    const [role] = isUuid(body.role_id)
      ? await db
          .select()
          .from(roles)
          .where(and(eq(roles.id, body.role_id), eq(roles.organizationId, organizationId)))
      : [];
    if (!role) throw invalidField('role_id', "Field 'role_id': no such role in this organization");
    permissionNames = role.permissionNames.filter((p) => principal.permissions.includes(p));
  }
  const prefix = newPrefix();
  const key = `ct_${prefix}_${randomBytes(32).toString('base64url')}`;
  const [row] = await db
    .insert(apiKeys)
    .values({
      organizationId,
      createdByUserId: principal.user.id,
      name: body.name,
      prefix,
      keyHash: hashKey(key),
      permissionNames,
      readOnly: body.read_only ?? false,
    })
    .returning();
  return { ...presentKey(row!), private_key: key };
}

export async function revokeKey(db: Db, organizationId: string, prefix: string): Promise<void> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(apiKeys.prefix, prefix),
        eq(apiKeys.organizationId, organizationId),
        isNull(apiKeys.revokedAt),
      ),
    )
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw notFound('API key');
}

/**
 * The principal of an API key; null for a malformed, unknown or revoked key,
 * or one whose creator is locked or no longer in its organization. The key's
 * permissions are those fixed at creation that its creator still holds.
 */
export async function apiKeyPrincipal(db: Db, key: string, now: Date): Promise<Principal | null> {
  const match = KEY_SHAPE.exec(key);
  if (!match) return null;
  const [found] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(and(eq(apiKeys.prefix, match[1]!), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!found || !constantTimeEqual(found.key.keyHash, hashKey(key)) || found.user.isLocked) {
    return null;
  }
  const held = await permissionsIn(db, found.user.id, found.key.organizationId);
  if (held === undefined) return null;
  const lastUsed = found.key.lastUsedAt?.getTime() ?? 0;
  if (now.getTime() - lastUsed > TOUCH_EVERY_MS) {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, found.key.id));
  }
  return {
    kind: 'api-key',
    user: found.user,
    organizationId: found.key.organizationId,
    permissions: found.key.permissionNames.filter((p) => held.includes(p)),
    sessionId: null,
    apiKeyPrefix: found.key.prefix,
    apiKeyReadOnly: found.key.readOnly,
  };
}

/** The reply of POST /api/keys/authenticate/: who the credentials are. */
export async function describeCredentials(
  db: Db,
  organizationId: string,
  principal: Principal,
): Promise<TKeyAuthentication> {
  const [org] = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) throw notFound('Organization');
  return {
    kind: principal.kind === 'api-key' ? 'api-key' : 'token',
    organization: org,
    permissions: [...principal.permissions],
    ...(principal.apiKeyPrefix ? { prefix: principal.apiKeyPrefix } : {}),
  };
}
