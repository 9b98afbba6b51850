import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { changedFields, recordAudit } from '../../kernel/audit';

describe('audit trail [RULE-AUDIT-2, RULE-AUDIT-3]', () => {
  let t: TestApp;
  let orgId: string;

  beforeAll(async () => {
    t = await createTestApp();
    orgId = (await t.createOrg()).id;
  });
  afterAll(() => t.close());

  it('records who, what, old and new value with a database time in UTC', async () => {
    const before = Date.now();
    await recordAudit(
      t.db,
      { organizationId: orgId, actor: { userId: null, name: 'Ada Quality', clientType: 'WEB' } },
      [
        {
          action: 'record.shipment.update',
          entityType: 'record',
          entityId: 42,
          recordId: 42,
          field: 'po_number',
          oldValue: 'PO-1',
          newValue: 'PO-2',
          reason: 'typo',
        },
      ],
    );
    const { rows } = await t.db.execute(
      sql`SELECT actor_name, action, entity_id, record_id, field, old_value, new_value, reason, occurred_at
            FROM audit_events WHERE organization_id = ${orgId}`,
    );
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, unknown>;
    expect(row).toMatchObject({
      actor_name: 'Ada Quality',
      action: 'record.shipment.update',
      entity_id: '42',
      record_id: '42',
      field: 'po_number',
      old_value: 'PO-1',
      new_value: 'PO-2',
      reason: 'typo',
    });
    expect(new Date(row.occurred_at as string).getTime()).toBeGreaterThanOrEqual(before - 5_000);
  });

  it('refuses UPDATE, DELETE and TRUNCATE, even from the owner', async () => {
    // The application role may not even try (test/db-roles.test.ts); the owner meets the trigger.
    const refusal = (statement: string) =>
      t.ownerHandle.pool.query(statement).then(
        () => 'done',
        (err: Error) => err.message,
      );
    expect(await refusal(`UPDATE audit_events SET reason = 'x'`)).toMatch(/append-only: UPDATE/);
    expect(await refusal(`DELETE FROM audit_events`)).toMatch(/append-only: DELETE/);
    expect(await refusal(`TRUNCATE audit_events`)).toMatch(/append-only: TRUNCATE/);
    const { rows } = await t.db.execute(sql`SELECT count(*)::int AS n FROM audit_events`);
    expect(rows[0]).toEqual({ n: 1 });
  });

  it('changedFields lists only the fields whose value changed', () => {
    const base = { action: 'product.update', entityType: 'product', entityId: '7' };
    const entries = changedFields(
      { name: 'Vaccine', high: 8, low: 2, at: new Date('2026-01-01T00:00:00Z') },
      { name: 'Vaccine', high: 25, at: new Date('2026-01-01T00:00:00Z') },
      base,
    );
    expect(entries).toEqual([{ ...base, field: 'high', oldValue: 8, newValue: 25 }]);
  });
});
