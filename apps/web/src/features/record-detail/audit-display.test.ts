import type { TAuditEvent } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { auditValue, auditWhat } from './audit-display';

const entry = (over: Partial<TAuditEvent>): TAuditEvent => ({
  id: '1',
  occurred_at: '2026-01-05T10:00:00.000Z',
  actor_user_id: null,
  actor_name: 'Ada',
  client_type: 'WEB',
  action: 'alarm.acknowledge',
  entity_type: 'alarm',
  entity_id: '12',
  record_id: '3',
  field: 'acknowledged',
  old_value: false,
  new_value: true,
  reason: null,
  ...over,
});

describe('audit trail display', () => {
  it('shows values as words, instants in the user zone, a dash for none', () => {
    expect(auditValue(true, 'UTC')).toBe('Yes');
    expect(auditValue(false, 'UTC')).toBe('No');
    expect(auditValue(null, 'UTC')).toBe('—');
    expect(auditValue('', 'UTC')).toBe('—');
    expect(auditValue(9.5, 'UTC')).toBe('9.5');
    expect(auditValue('LOT-7', 'UTC')).toBe('LOT-7');
    expect(auditValue('APPROVED', 'UTC')).toBe('Approved');
    expect(auditValue({ a: 1 }, 'UTC')).toBe('{"a":1}');
    const utc = auditValue('2026-01-05T10:00:00.000Z', 'UTC');
    const berlin = auditValue('2026-01-05T10:00:00.000Z', 'Europe/Berlin');
    expect(utc).toMatch(/10:00/);
    expect(berlin).toMatch(/11:00/);
  });

  it('names what happened', () => {
    expect(auditWhat(entry({}))).toBe('Acknowledged alarm 12 · acknowledged');
    expect(
      auditWhat(
        entry({ action: 'record.shipment.update', entity_type: 'record', field: 'po_number' }),
      ),
    ).toBe('Edited shipment details · po number');
    expect(
      auditWhat(entry({ action: 'product.update', entity_type: 'product', field: null })),
    ).toBe('product.update');
  });
});
