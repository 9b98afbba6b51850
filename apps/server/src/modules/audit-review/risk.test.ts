import { AUDIT_REVIEW_REASONS } from '@coldtrace/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRanked, isOffHours, reasonsOf, riskOf, type EntryFacts } from './risk';

const base: EntryFacts = {
  id: 10,
  action: 'record.shipment.update',
  entityType: 'record',
  field: 'secondary_reference',
  // A Wednesday, 10:00 UTC.
  occurredAt: new Date('2026-11-04T10:00:00Z'),
  actorUserId: 'u1',
  firstReleaseEventId: null,
  recordEndedAt: null,
  aboutRecord: true,
  actorTimeZone: 'UTC',
};

describe('audit-trail review: ranking an entry [FEAT-AUDIT-REVIEW]', () => {
  it('a change to a record after its release entry is high; the release entry itself is not', () => {
    expect(reasonsOf({ ...base, firstReleaseEventId: 9 })).toEqual(['after_release']);
    expect(reasonsOf({ ...base, id: 9, firstReleaseEventId: 9 })).toEqual([]);
    expect(riskOf(['after_release'])).toBe('high');
  });

  it('a threshold change is high while the shipment is active, not once it has ended', () => {
    const change = { ...base, field: 'high_threshold' };
    expect(reasonsOf(change)).toEqual(['limit_change_active']);
    expect(reasonsOf({ ...change, recordEndedAt: new Date('2026-11-05T00:00:00Z') })).toEqual([
      'limit_change_active',
    ]);
    expect(reasonsOf({ ...change, recordEndedAt: new Date('2026-11-03T00:00:00Z') })).toEqual([]);
  });

  it('failed signatures are high, access changes and product limits medium', () => {
    const of = (action: string, field: string | null = null, entityType = 'user') =>
      riskOf(reasonsOf({ ...base, action, field, entityType, aboutRecord: false }));
    expect(of('second_factor.failure')).toBe('high');
    expect(of('signature.failure')).toBe('high');
    expect(of('user.role.change')).toBe('medium');
    expect(of('user.lock')).toBe('medium');
    expect(of('product.update', 'high_threshold', 'product')).toBe('medium');
    expect(of('product.update', 'name', 'product')).toBe('low');
    expect(of('carrier.create', null, 'carrier')).toBe('low');
  });

  it("administration outside 07:00-19:00 Monday to Friday in the actor's zone is off-hours", () => {
    const admin = { ...base, action: 'carrier.create', entityType: 'carrier', aboutRecord: false };
    expect(reasonsOf(admin)).toEqual([]);
    // 10:00 UTC is 19:00 in Tokyo: off-hours there.
    expect(reasonsOf({ ...admin, actorTimeZone: 'Asia/Tokyo' })).toEqual(['off_hours']);
    // Saturday.
    expect(reasonsOf({ ...admin, occurredAt: new Date('2026-11-07T10:00:00Z') })).toEqual([
      'off_hours',
    ]);
    // Work on shipments goes on at night, and the system is nobody.
    expect(reasonsOf({ ...base, actorTimeZone: 'Asia/Tokyo' })).toEqual([]);
    expect(reasonsOf({ ...admin, actorUserId: null, actorTimeZone: 'Asia/Tokyo' })).toEqual([]);
    // An unknown zone reads as UTC.
    expect(isOffHours(new Date('2026-11-04T10:00:00Z'), 'Nowhere/Else')).toBe(false);
  });

  it('the risk is the highest of the reasons, and ranking puts higher risk first, then newer', () => {
    const reasons = Object.keys(AUDIT_REVIEW_REASONS) as (keyof typeof AUDIT_REVIEW_REASONS)[];
    const entry = fc.record({
      risk: fc.constantFrom('high' as const, 'medium' as const, 'low' as const),
      occurredAt: fc.date({
        min: new Date('2026-01-01'),
        max: new Date('2026-12-31'),
        noInvalidDate: true,
      }),
      id: fc.nat(),
    });
    fc.assert(
      fc.property(fc.subarray(reasons), (some) => {
        const risk = riskOf(some);
        const ranks = { high: 3, medium: 2, low: 1 };
        const highest = Math.max(1, ...some.map((r) => ranks[AUDIT_REVIEW_REASONS[r].risk]));
        expect(ranks[risk]).toBe(highest);
      }),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (entries) => {
        const ranks = { high: 3, medium: 2, low: 1 };
        const sorted = [...entries].sort(compareRanked);
        for (let i = 1; i < sorted.length; i++) {
          const [a, b] = [sorted[i - 1]!, sorted[i]!];
          expect(ranks[a.risk]).toBeGreaterThanOrEqual(ranks[b.risk]);
          if (a.risk === b.risk)
            expect(a.occurredAt.getTime()).toBeGreaterThanOrEqual(b.occurredAt.getTime());
        }
      }),
    );
  });
});
