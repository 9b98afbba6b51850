import type { TAuditEvent } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { auditChange, auditWhat } from './audit-display';

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

describe('audit trail display [FEAT-AUDIT-DISPLAY]', () => {
  const f = { unit: 'F' as const, timeZone: 'America/New_York', hidden: false };

  it('shows the change as the reports do: words, the user unit and zone', () => {
    expect(auditChange(entry({}), f)).toBe('Acknowledged: No → Yes');
    expect(
      auditChange(
        entry({
          action: 'record.shipment.update',
          field: 'high_threshold',
          old_value: 8,
          new_value: 9,
        }),
        f,
      ),
    ).toBe('High threshold: 46.4 °F → 48.2 °F');
    expect(
      auditChange(
        entry({
          action: 'record.trip.update',
          field: 'trip_status',
          old_value: 'NOT_DEPARTED',
          new_value: 'IN_TRANSIT',
        }),
        f,
      ),
    ).toBe('Trip status: Not departed → In transit');
    expect(
      auditChange(
        entry({ field: 'begin_time', old_value: null, new_value: '2026-01-05T10:00:00.000Z' }),
        { ...f, timeZone: 'Europe/Berlin' },
      ),
    ).toBe('Trip begin: — → 01/05/2026, 11:00:00');
    expect(
      auditChange(entry({ field: 'carrier', old_value: 'A', new_value: 'B' }), {
        ...f,
        hidden: true,
      }),
    ).toBe('Carrier: (hidden) → (hidden)');
  });

  it('names what happened', () => {
    expect(auditWhat(entry({}))).toBe('Alarm acknowledged 12');
    expect(
      auditWhat(
        entry({ action: 'record.shipment.update', entity_type: 'record', field: 'po_number' }),
      ),
    ).toBe('Shipment details changed');
    expect(
      auditWhat(entry({ action: 'product.update', entity_type: 'product', field: null })),
    ).toBe('Product update');
  });
});
