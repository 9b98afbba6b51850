import { ZFileReference, ZRecord, type TRecord } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helpers';
import {
  alarmsOf,
  deviceUser,
  epoch,
  iso,
  serial,
  xt1Body,
  type DeviceUser,
} from '../../../test/shipment-factories';

/*
 * Stability budgets (issue 14 item 3; docs/decisions/stability-budget.md)
 * through HTTP: the product form, the sum across legs, the record reply, the
 * projection and the budget alarm, per organization.
 */

const XT1 = '/api/devices/xt1/';
const PRODUCTS = '/api/products/product-definitions/';

describe('stability budgets across legs [FEAT-STABILITY-BUDGET]', () => {
  let t: TestApp;
  let a: DeviceUser;
  let b: DeviceUser;
  beforeAll(async () => {
    t = await createTestApp();
    a = await deviceUser(t);
    b = await deviceUser(t);
  });
  afterAll(() => t.close());

  async function product(user: DeviceUser, name: string, bands: unknown) {
    const res = await user.client.post(PRODUCTS, { product_name: name, stability_budget: bands });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string; stability_budget: unknown };
  }

  /** A leg: a started xt1 record of a new tag (interval 60 s), then one scan of `temps`. */
  async function leg(
    user: DeviceUser,
    fields: Record<string, unknown>,
    temps: readonly number[],
  ): Promise<string> {
    const sn = serial('LEG');
    const start = epoch(new Date()) - 4 * 3600;
    const body = (extra: Record<string, unknown>) => xt1Body(sn, { ...fields, ...extra });
    const started = await user.device.post(
      `${XT1}start-action/`,
      body({ start_time_seconds: start, timestamp: iso(start) }),
    );
    expect(started.statusCode, started.body).toBe(200);
    const scanned = await user.device.post(
      `${XT1}scans/`,
      body({ start_time_seconds: start, timestamp: iso(start + temps.length * 60), temps }),
    );
    expect(scanned.statusCode, scanned.body).toBe(200);
    return String(started.json().record_id);
  }

  async function record(user: DeviceUser, id: string): Promise<TRecord> {
    const res = await user.client.get(`${XT1}record/?record_id=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecord.parse(res.json());
  }

  const budgetAlarms = async (id: string) =>
    (await alarmsOf(t.db, id)).filter((row) => row.kind === 'budget');

  const run = (n: number, value: number) => Array.from({ length: n }, () => value);

  it('refuses a band it cannot keep (400 naming the field) and stores none of it', async () => {
    const bad: [unknown, string][] = [
      [[{ direction: 'ABOVE', limit: 8.05, allowed_minutes: 10 }], 'stability_budget.0.limit'],
      [
        [{ direction: 'ABOVE', limit: 8, allowed_minutes: -1 }],
        'stability_budget.0.allowed_minutes',
      ],
      [[{ direction: 'UP', limit: 8, allowed_minutes: 1 }], 'stability_budget.0.direction'],
      [
        [
          { direction: 'ABOVE', limit: 8, allowed_minutes: 1 },
          { direction: 'ABOVE', limit: 8.0, allowed_minutes: 2 },
        ],
        'stability_budget.1.limit',
      ],
      [
        run(11, 0).map((_, i) => ({ direction: 'ABOVE', limit: i, allowed_minutes: 1 })),
        'stability_budget',
      ],
    ];
    for (const [bands, field] of bad) {
      const res = await a.client.post(PRODUCTS, {
        product_name: 'Refused',
        stability_budget: bands,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().fields)).toContain(field);
    }
    const list = (await a.client.get(PRODUCTS)).json() as { product_name: string }[];
    expect(list.map((p) => p.product_name)).not.toContain('Refused');
  });

  it('keeps the bands, edits them, and [] or null clears them', async () => {
    const bands = [
      { direction: 'ABOVE', limit: 8, allowed_minutes: 720 },
      { direction: 'BELOW', limit: 0, allowed_minutes: 0 },
    ];
    const created = await product(a, 'Kept', bands);
    expect(created.stability_budget).toEqual(bands);
    const edited = await a.client.patch(`${PRODUCTS}?product_id=${created.id}`, {
      stability_budget: [{ direction: 'ABOVE', limit: 25, allowed_minutes: 60 }],
    });
    expect(edited.json().stability_budget).toEqual([
      { direction: 'ABOVE', limit: 25, allowed_minutes: 60 },
    ]);
    const cleared = await a.client.patch(`${PRODUCTS}?product_id=${created.id}`, {
      stability_budget: [],
    });
    expect(cleared.json().stability_budget).toBeNull();
  });

  it('sums the minutes beyond each band across the legs of one shipment and raises the alarm where it runs out', async () => {
    // Worked example: 30 minutes allowed above 8 °C, 5 above 25 °C, none below 0 °C; 1-minute points.
    await product(a, 'Vaccine A', [
      { direction: 'ABOVE', limit: 8, allowed_minutes: 30 },
      { direction: 'ABOVE', limit: 25, allowed_minutes: 5 },
      { direction: 'BELOW', limit: 0, allowed_minutes: 0 },
    ]);
    const shipment = { shipping_reference: 'SHIP-A1', product_designation: 'Vaccine A' };
    // Leg 1: 20 minutes at 9 °C (above 8), 2 at 26 °C (above 25 and 8), 8 °C exactly is not above.
    const leg1 = await leg(a, shipment, [...run(20, 9), 26, 26, 8, ...run(10, 5)]);
    let one = await record(a, leg1);
    expect(one.stability_budget?.bands).toEqual([
      expect.objectContaining({
        limit: 8,
        consumed_minutes: 22,
        remaining_minutes: 8,
        used_up: false,
        this_leg_minutes: 22,
      }),
      expect.objectContaining({
        limit: 25,
        consumed_minutes: 2,
        remaining_minutes: 3,
        used_up: false,
      }),
      expect.objectContaining({
        limit: 0,
        consumed_minutes: 0,
        remaining_minutes: 0,
        used_up: false,
      }),
    ]);
    expect(await budgetAlarms(leg1)).toEqual([]);

    // Leg 2: 10 more minutes above 8 °C: 32 of 30 used, the band runs out on this leg.
    const leg2 = await leg(a, shipment, [...run(10, 10), ...run(5, 4)]);
    const two = await record(a, leg2);
    expect(two.stability_budget?.legs.map((l) => l.record_id)).toEqual([leg1, leg2]);
    expect(two.stability_budget?.bands[0]).toMatchObject({
      consumed_minutes: 32,
      remaining_minutes: 0,
      used_up: true,
      this_leg_minutes: 10,
    });
    const alarms = await budgetAlarms(leg2);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      aboveOrBelow: 'ABOVE',
      highThreshold: 8,
      state: 'OPEN',
      duration: 32 * 60,
    });
    expect(two.status).toBe('Alarm');
    // Leg 1's reply shows the same sum (it is one shipment).
    one = await record(a, leg1);
    expect(one.stability_budget?.bands[0]).toMatchObject({
      consumed_minutes: 32,
      this_leg_minutes: 22,
    });

    // Another shipment reference, another product, another organization: not counted.
    const other = await leg(a, { ...shipment, shipping_reference: 'SHIP-A2' }, run(5, 9));
    expect((await record(a, other)).stability_budget?.bands[0]).toMatchObject({
      consumed_minutes: 5,
    });
    const noBudget = await leg(a, { ...shipment, product_designation: 'Saline' }, run(5, 9));
    expect((await record(a, noBudget)).stability_budget).toBeNull();
    await product(b, 'Vaccine A', [{ direction: 'ABOVE', limit: 8, allowed_minutes: 30 }]);
    const theirs = await leg(b, shipment, run(3, 9));
    expect((await record(b, theirs)).stability_budget?.bands[0]).toMatchObject({
      consumed_minutes: 3,
      used_up: false,
    });
    expect((await b.client.get(`${XT1}record/?record_id=${leg1}`)).statusCode).toBe(404);

    // A later data upload of the leg does not raise the same band twice.
    const again = await a.device.post(
      `${XT1}scans/`,
      xt1Body((await record(a, leg2)).tag_serial_number!, {
        ...shipment,
        start_time_seconds: Number(two.start_time_seconds),
        timestamp: new Date().toISOString(),
        temps: [...run(10, 10), ...run(5, 4), 9, 9],
      }),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(await budgetAlarms(leg2)).toHaveLength(1);

    // Every report tells the same story: the PDF's verdict and the CSV's header.
    const download = async (kind: 'pdf' | 'csv') => {
      const made = await a.client.post(`${XT1}reports/${kind}/`, { record_id: leg2 });
      expect(made.statusCode, made.body).toBe(200);
      const res = await a.client.get(ZFileReference.parse(made.json()).localUrl!);
      expect(res.statusCode, res.body).toBe(200);
      return res.rawPayload;
    };
    const pdf = execFileSync('pdftotext', ['-layout', '-', '-'], { input: await download('pdf') })
      .toString('utf8')
      .replace(/\s+/g, ' ');
    const verdict = pdf.slice(pdf.lastIndexOf('Verdict'));
    expect(verdict).toContain('Stability budget: Vaccine A (shipment SHIP-A1, 2 legs)');
    expect(verdict).toContain(
      'Budget above 8.0 °C: 34 min of 30 min used (used up); this leg 12 min',
    );
    const csv = (await download('csv')).toString('utf8');
    expect(csv).toContain('Budget above 8.0 °C,34 min of 30 min used (used up); this leg 12 min');
  });

  it('counts a leg stored before the histograms existed from its series, the same minutes', async () => {
    await product(a, 'Vaccine E', [{ direction: 'ABOVE', limit: 8, allowed_minutes: 60 }]);
    const shipment = { shipping_reference: 'SHIP-E', product_designation: 'Vaccine E' };
    const old = await leg(a, shipment, [...run(7, 9), ...run(3, 5)]);
    const current = await leg(a, shipment, run(4, 9));
    // The old leg's aggregates as a record stored before them had none.
    await t.db.execute(sql`DELETE FROM record_aggregates WHERE record_id = ${Number(old)}`);
    for (let i = 0; i < 2; i++) {
      const bands = (await record(a, current)).stability_budget?.bands;
      expect(bands?.[0]).toMatchObject({ consumed_minutes: 11, this_leg_minutes: 4 });
    }
  });

  it('a band of 0 minutes is used up by the first point beyond it', async () => {
    await product(a, 'Frozen B', [{ direction: 'BELOW', limit: 0, allowed_minutes: 0 }]);
    const id = await leg(
      a,
      { shipping_reference: 'SHIP-B', product_designation: 'Frozen B' },
      [3, 3, -0.5, 3],
    );
    expect((await record(a, id)).stability_budget?.bands).toEqual([
      expect.objectContaining({ consumed_minutes: 1, remaining_minutes: 0, used_up: true }),
    ]);
    expect(await budgetAlarms(id)).toMatchObject([{ aboveOrBelow: 'BELOW', lowThreshold: 0 }]);
  });

  it('moving a leg to another shipment closes its budget alarm: a reason and a signature, as for any change that clears an alarm', async () => {
    await product(a, 'Vaccine C', [{ direction: 'ABOVE', limit: 8, allowed_minutes: 10 }]);
    const shipment = { shipping_reference: 'SHIP-C', product_designation: 'Vaccine C' };
    await leg(a, shipment, run(8, 9));
    const second = await leg(a, shipment, run(4, 9));
    expect(await budgetAlarms(second)).toHaveLength(1);
    const move = (extra: Record<string, unknown>) =>
      a.client.post(`${XT1}update-shipment-action/`, {
        record_id: second,
        shipping_reference: 'SHIP-C-SPLIT',
        mobile_device_type: 'WEB',
        ...extra,
      });
    const unsigned = await move({ reason: 'Split the consignment' });
    expect(unsigned.statusCode, unsigned.body).toBe(400);
    expect(unsigned.json().code).toBe('SIGNATURE_REQUIRED');
    expect((await budgetAlarms(second))[0]!.state).toBe('OPEN');
    const signed = await move({
      reason: 'Split the consignment',
      password: TEST_PASSWORD,
      meaning: 'APPROVED',
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const [closed] = await budgetAlarms(second);
    expect(closed).toMatchObject({
      state: 'CLOSED',
      closeCause: 'SHIPMENT_CHANGE',
      closeReason: 'Split the consignment',
      closedByUserId: a.userId,
    });
    expect((await record(a, second)).stability_budget?.bands[0]).toMatchObject({
      consumed_minutes: 4,
      used_up: false,
    });
  });

  it('projects the leg rate to the planned arrival while in transit', async () => {
    await product(a, 'Vaccine D', [{ direction: 'ABOVE', limit: 8, allowed_minutes: 600 }]);
    const arrival = new Date(Date.now() + 120 * 60_000);
    // 15 of 60 minutes above 8 °C: a rate of 0.25; 120 minutes to go add about 30.
    const id = await leg(
      a,
      {
        shipping_reference: 'SHIP-D',
        product_designation: 'Vaccine D',
        planned_arrival: arrival.toISOString(),
      },
      [...run(15, 9), ...run(45, 5)],
    );
    const reply = await record(a, id);
    expect(reply.planned_arrival).toBe(arrival.toISOString());
    const band = reply.stability_budget!.bands[0]!;
    expect(band.consumed_minutes).toBe(15);
    expect(band.projected_minutes).toBeGreaterThan(44.5);
    expect(band.projected_minutes).toBeLessThanOrEqual(45);
    expect(band.used_up_at).toBeNull();
    // Stopped: no projection.
    const stopped = await a.device.post(
      `${XT1}stop-action/`,
      xt1Body(reply.tag_serial_number!, {
        start_time_seconds: Number(reply.start_time_seconds),
        timestamp: new Date().toISOString(),
      }),
    );
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect((await record(a, id)).stability_budget!.bands[0]!.projected_minutes).toBeNull();
  });
});
