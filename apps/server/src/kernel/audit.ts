import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEvents } from '../db/schema-audit';
import type { Principal } from './principal';

/**
 * Writing the audit trail (domain rules section 6). Call `recordAudit` in the
 * same transaction as the change it describes, so the change and its entry
 * commit together or not at all. Nothing may update or delete entries.
 */

export type AuditClientType = 'WEB' | 'MOBILE' | 'API' | 'SYSTEM';

export interface AuditActor {
  /** Null for the system (device uploads, jobs). */
  userId: string | null;
  /** Printed name at the time ("First Last", or the username). */
  name: string;
  email?: string | null;
  clientType?: AuditClientType | string | null;
}

export interface AuditContext {
  organizationId: string;
  actor: AuditActor;
  requestId?: string | null;
}

export interface AuditEntry {
  /** e.g. `alarm.acknowledge`, `record.shipment.update`, `record.trip.update`, `user.role.change`. */
  action: string;
  entityType: string;
  entityId: string | number;
  recordId?: number | null;
  field?: string | null;
  oldValue?: unknown;
  newValue?: unknown;
  reason?: string | null;
}

/** Printed name of a user row: "First Last", else the username. */
export function printedName(user: {
  firstName: string;
  lastName: string;
  username: string;
}): string {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return name === '' ? user.username : name;
}

/** The actor of a request made by a signed-in principal. */
export function actorOf(
  principal: {
    user: Pick<Principal['user'], 'id' | 'firstName' | 'lastName' | 'username' | 'email'>;
    kind: Principal['kind'];
    apiKeyPrefix?: string | undefined;
  },
  clientType?: AuditClientType | string | null,
): AuditActor {
  return {
    userId: principal.user.id,
    // An integration acts as the key's creator; the trail names the key too.
    name:
      principal.kind === 'api-key' && principal.apiKeyPrefix !== undefined
        ? `${printedName(principal.user)} (API key ${principal.apiKeyPrefix})`
        : printedName(principal.user),
    email: principal.user.email,
    clientType: clientType ?? (principal.kind === 'session' ? 'WEB' : 'API'),
  };
}

export const SYSTEM_ACTOR: AuditActor = { userId: null, name: 'System', clientType: 'SYSTEM' };

const json = (value: unknown) => (value === undefined ? null : value);

/**
 * The actor as the database reads it: the entry's time and actor are set by a
 * trigger from this transaction setting, never from the values inserted
 * (migration 0034, docs/decisions/evidence-chain.md).
 */
function actorSetting(actor: AuditActor): string {
  return JSON.stringify({
    userId: actor.userId,
    name: actor.name,
    email: actor.email ?? null,
    clientType: actor.clientType ?? null,
  });
}

export async function recordAudit(
  db: Db,
  context: AuditContext,
  entries: readonly AuditEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  // A transaction (a savepoint inside one): the setting lasts until it ends.
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT set_config('coldtrace.actor', ${actorSetting(context.actor)}, true)`,
    );
    await insertEntries(tx, context, entries);
  });
}

async function insertEntries(
  db: Db,
  context: AuditContext,
  entries: readonly AuditEntry[],
): Promise<void> {
  await db.insert(auditEvents).values(
    entries.map((entry) => ({
      organizationId: context.organizationId,
      // Set again by the database from the transaction's actor.
      actorName: context.actor.name,
      action: entry.action,
      entityType: entry.entityType,
      entityId: String(entry.entityId),
      recordId: entry.recordId ?? null,
      field: entry.field ?? null,
      oldValue: json(entry.oldValue),
      newValue: json(entry.newValue),
      reason: entry.reason ?? null,
      requestId: context.requestId ?? null,
    })),
  );
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * One entry per field whose value changed between `before` and `after`
 * (only the `fields` given, or every key of `after`). Dates compare by instant.
 */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
  base: Omit<AuditEntry, 'field' | 'oldValue' | 'newValue'>,
  fields: readonly (keyof T & string)[] = Object.keys(after) as (keyof T & string)[],
): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const field of fields) {
    if (!(field in after)) continue;
    const oldValue = before[field];
    const newValue = after[field];
    if (same(oldValue, newValue)) continue;
    entries.push({ ...base, field, oldValue: json(oldValue), newValue: json(newValue) });
  }
  return entries;
}
