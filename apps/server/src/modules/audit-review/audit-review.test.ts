import {
  ZAuditReview,
  ZAuditReviewPeriodSummary,
  ZRole,
  type TAuditReview,
} from '@coldtrace/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { organizations } from '../../db/schema';
import { auditEvents } from '../../db/schema-audit';
import {
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
  type TestClient,
  type TestOrg,
} from '../../../test/helpers';
import { iso, scannedShipment, stoppedShipment } from '../../../test/shipment-factories';
import { periodAt } from './service';

const XT1 = '/api/devices/xt1';
const REVIEW = '/api/audit/review/';
const IN_RANGE = [5, 5, 5, 5];

/** A zone where it is outside working hours now (07:00-19:00, Monday to Friday). */
function offHoursZone(): string {
  // UTC-11 to UTC+14, a few hours apart: one of them is always outside working hours.
  for (const zone of [
    'Pacific/Pago_Pago',
    'Pacific/Honolulu',
    'America/Los_Angeles',
    'America/New_York',
    'Europe/London',
    'Europe/Berlin',
    'Asia/Kolkata',
    'Asia/Tokyo',
    'Pacific/Auckland',
    'Pacific/Kiritimati',
  ]) {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      hour: 'numeric',
      hourCycle: 'h23',
    }).formatToParts(new Date());
    const hour = Number(parts.find((p) => p.type === 'hour')!.value);
    const weekday = parts.find((p) => p.type === 'weekday')!.value;
    if (weekday === 'Sat' || weekday === 'Sun' || hour < 7 || hour >= 19) return zone;
  }
  throw new Error('every zone is in working hours');
}

describe('audit-trail review (issue 37 item 6) [FEAT-AUDIT-REVIEW]', () => {
  let t: TestApp;
  let org: TestOrg;
  let admin: TestClient;
  let manager: TestClient;
  let stranger: TestClient;
  let strangerOrg: TestOrg;
  const thisMonth = periodAt(new Date());
  const now = new Date();
  const lastMonth = periodAt(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)));
  const threeMonthsAgo = periodAt(
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1)),
  );

  const review = async (client: TestClient, period: string, query = '') => {
    const res = await client.get(`${REVIEW}?period=${period}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZAuditReview.parse(res.json());
  };
  const entryOf = (r: TAuditReview, action: string, field?: string) =>
    r.entries.find(
      (e) => e.event.action === action && (field === undefined || e.event.field === field),
    );

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Administrator' });
    org = signedIn.orgs[0]!;
    admin = signedIn.client;
    ({ client: manager } = await t.signIn({ role: 'Manager', orgs: [org] }));
    const other = await t.signIn({ role: 'Administrator' });
    stranger = other.client;
    strangerOrg = other.orgs[0]!;
    const theirs = await stranger.post('/api/products/carrier-definitions/', { name: 'Elsewhere' });
    expect(theirs.statusCode, theirs.body).toBe(200);

    // A threshold changed while the shipment is active (high).
    const active = await scannedShipment(admin, IN_RANGE, 'REV');
    const changed = await admin.post(`${XT1}/update-shipment-action/`, {
      record_id: active.recordId,
      high_threshold: 9.5,
      timestamp: iso(active.start + 700),
    });
    expect(changed.statusCode, changed.body).toBe(200);

    // A record released, then changed (high).
    const released = await stoppedShipment(admin, IN_RANGE, 'REV');
    const decided = await admin.post(`${XT1}/records/disposition/`, {
      record_id: released.recordId,
      decision: 'RELEASED',
      comment: 'Within limits',
      password: TEST_PASSWORD,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const after = await admin.post(`${XT1}/update-shipment-action/`, {
      record_id: released.recordId,
      secondary_reference: 'LOT-AFTER',
      timestamp: iso(released.start + 2000),
    });
    expect(after.statusCode, after.body).toBe(200);

    // A role changed (medium), then administration at night in the actor's zone (medium).
    const roles = z.array(ZRole).parse((await admin.get('/api/auth/role-permissions/')).json());
    const member = await t.createUser({ role: 'Viewer', orgs: [org] });
    const role = await admin.patch('/api/auth/user-roles/', {
      user_id: member.id,
      role_id: roles.find((r) => r.name === 'Operator')!.id,
      organization_id: org.id,
    });
    expect(role.statusCode, role.body).toBe(200);
    const zone = await admin.patch('/api/auth/user-settings/', { timezone: offHoursZone() });
    expect(zone.statusCode, zone.body).toBe(200);
    const carrier = await admin.post('/api/products/carrier-definitions/', {
      name: 'Night Freight',
    });
    expect(carrier.statusCode, carrier.body).toBe(200);
  });
  afterAll(() => t.close());

  it('ranks the month by risk with the reasons: high, then medium, then the rest; system entries only counted', async () => {
    const r = await review(admin, thisMonth);
    expect(r).toMatchObject({ period: thisMonth, state: 'open', closure: null });
    expect(entryOf(r, 'record.shipment.update', 'high_threshold')).toMatchObject({
      risk: 'high',
      reasons: ['limit_change_active'],
      review: null,
    });
    expect(entryOf(r, 'record.shipment.update', 'secondary_reference')).toMatchObject({
      risk: 'high',
      reasons: ['after_release'],
    });
    expect(entryOf(r, 'record.disposition')).toMatchObject({ risk: 'low', reasons: [] });
    // Also off-hours: the actor's time zone is read as it is now.
    expect(entryOf(r, 'user.role.change')).toMatchObject({
      risk: 'medium',
      reasons: expect.arrayContaining(['access_change']),
    });
    expect(entryOf(r, 'carrier.create')).toMatchObject({ risk: 'medium', reasons: ['off_hours'] });
    const ranks = { high: 3, medium: 2, low: 1 };
    const order = r.entries.map((e) => ranks[e.risk]);
    expect(order).toEqual([...order].sort((a, b) => b - a));
    // Medium: the role change, the carrier, and the time-zone change itself (both at night).
    expect(entryOf(r, 'user.settings.update')).toMatchObject({ reasons: ['off_hours'] });
    expect(r.counts).toMatchObject({ high: 2, medium: 3, reviewed: 0, unreviewed_high: 2 });
    // Every entry here was made by a person: none is only counted.
    expect(r.counts.system).toBe(0);
    expect((await review(admin, thisMonth, '&risk=high')).entries).toHaveLength(2);
  });

  it('is for administrators of the organization only, and names a malformed month', async () => {
    expect((await manager.get(`${REVIEW}?period=${thisMonth}`)).statusCode).toBe(403);
    const theirs = await review(stranger, thisMonth);
    expect(theirs.entries.map((e) => e.event.action)).toEqual(['carrier.create']);
    const bad = await admin.get(`${REVIEW}?period=2026-13`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['period']);
  });

  it('marks entries once, with who and a comment, in the trail; refuses entries of another month or organization', async () => {
    const before = await review(admin, thisMonth, '&risk=high');
    const ids = before.entries.map((e) => e.event.id);
    const res = await admin.post(`${REVIEW}marks/`, {
      period: thisMonth,
      event_ids: ids,
      comment: 'Checked with the shipper',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveLength(2);
    const again = await admin.post(`${REVIEW}marks/`, {
      period: thisMonth,
      event_ids: [ids[0]],
      comment: 'A second look',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()[0].review.comment).toBe('Checked with the shipper');
    const after = await review(admin, thisMonth);
    expect(after.counts).toMatchObject({ reviewed: 2, unreviewed_high: 0 });

    const marks = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.organizationId, org.id), eq(auditEvents.action, 'audit_review.mark')),
      );
    expect(marks.map((m) => m.entityId).sort()).toEqual([...ids].sort());
    expect(marks[0]).toMatchObject({ reason: 'Checked with the shipper', newValue: thisMonth });

    const foreign = (await review(stranger, thisMonth)).entries[0]!.event.id;
    const refused = await admin.post(`${REVIEW}marks/`, {
      period: thisMonth,
      event_ids: [foreign],
      comment: 'Not ours',
    });
    expect(refused.statusCode).toBe(404);
    expect(Object.keys(refused.json().fields)).toEqual(['event_ids']);
    const elsewhen = await admin.post(`${REVIEW}marks/`, {
      period: lastMonth,
      event_ids: [ids[0]],
      comment: 'Wrong month',
    });
    expect(elsewhen.statusCode).toBe(404);
  });

  it('closes a month only once it has ended and its high-risk entries are reviewed, with a signature; then nothing changes', async () => {
    const sign = { comment: 'Trail of the month reviewed', password: TEST_PASSWORD };
    const early = await admin.post(`${REVIEW}close/`, { period: thisMonth, ...sign });
    expect(early.statusCode).toBe(409);
    expect(early.json().fields).toEqual({ period: 'not ended' });

    // An unreviewed high-risk entry of last month (moved there as the owner, the trail's stamp off).
    const high = (await review(admin, thisMonth, '&risk=high')).entries[0]!.event.id;
    await t.ownerDb.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE audit_events DISABLE TRIGGER USER`);
      await tx.execute(
        sql`INSERT INTO audit_events (organization_id, occurred_at, actor_user_id, actor_name, action,
              entity_type, entity_id, record_id, field)
            SELECT organization_id, ${new Date(`${lastMonth}-15T12:00:00Z`)}, actor_user_id, actor_name,
              action, entity_type, entity_id, record_id, field
              FROM audit_events WHERE id = ${Number(high)}`,
      );
      await tx.execute(sql`ALTER TABLE audit_events ENABLE TRIGGER USER`);
    });
    const blocked = await admin.post(`${REVIEW}close/`, { period: lastMonth, ...sign });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe(
      `1 high-risk entries of ${lastMonth} are not reviewed yet.`,
    );

    const pending = (await review(admin, lastMonth)).entries.map((e) => e.event.id);
    expect(
      (
        await admin.post(`${REVIEW}marks/`, {
          period: lastMonth,
          event_ids: pending,
          comment: 'Seen',
        })
      ).statusCode,
    ).toBe(200);
    const wrong = await admin.post(`${REVIEW}close/`, {
      ...sign,
      period: lastMonth,
      password: 'nope',
    });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json().fields)).toEqual(['password']);
    // The wrong password is itself in the trail, ranked high in this month's review.
    const failed = (await review(admin, thisMonth, '&risk=high')).entries.filter(
      (e) => e.event.action === 'signature.failure',
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.risk).toBe('high');
    expect(failed[0]!.reasons).toContain('failed_signature');

    const closed = await admin.post(`${REVIEW}close/`, { period: lastMonth, ...sign });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(ZAuditReview.parse(closed.json())).toMatchObject({
      state: 'closed',
      closure: { meaning: 'REVIEWED', comment: sign.comment, entries: 1, reviewed: 1 },
    });
    const twice = await admin.post(`${REVIEW}close/`, { period: lastMonth, ...sign });
    expect(twice.statusCode).toBe(409);
    const late = await admin.post(`${REVIEW}marks/`, {
      period: lastMonth,
      event_ids: pending,
      comment: 'Too late',
    });
    expect(late.statusCode).toBe(409);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.organizationId, org.id), eq(auditEvents.action, 'audit_review.close')),
      );
    expect(audit).toMatchObject({ entityId: lastMonth, reason: `Reviewed: ${sign.comment}` });
  });

  it('lists the last 12 months since the organization was created: this one open, last month closed, older ones overdue', async () => {
    // A new organization: no month before it existed is due (the stranger's was created today).
    const fresh = z
      .array(ZAuditReviewPeriodSummary)
      .parse((await stranger.get('/api/audit/reviews/')).json());
    expect(fresh.map((p) => [p.period, p.state])).toEqual([[thisMonth, 'open']]);
    // Both, as if created well over a year ago.
    await t.ownerDb
      .update(organizations)
      .set({ created: new Date(Date.UTC(now.getUTCFullYear() - 2, 0, 1)) })
      .where(inArray(organizations.id, [org.id, strangerOrg.id]));
    const res = await admin.get('/api/audit/reviews/');
    expect(res.statusCode, res.body).toBe(200);
    const periods = z.array(ZAuditReviewPeriodSummary).parse(res.json());
    expect(periods).toHaveLength(12);
    expect(periods[0]).toMatchObject({ period: thisMonth, state: 'open' });
    expect(periods[1]).toMatchObject({ period: lastMonth, state: 'closed' });
    expect(periods.find((p) => p.period === threeMonthsAgo)).toMatchObject({ state: 'overdue' });
    // Another organization's closure is not this one's.
    const theirs = z
      .array(ZAuditReviewPeriodSummary)
      .parse((await stranger.get('/api/audit/reviews/')).json());
    expect(theirs).toHaveLength(12);
    expect(theirs[1]!.state).not.toBe('closed');
  });
});
