import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import {
  deviceUser,
  epoch,
  iso,
  serial,
  xt1Body,
  type TokenClient,
} from '../../test/shipment-factories';
import { STORED_DECIMALS, asFloat4Decimal, roundStored } from './series-store';

/**
 * Issue 11: API numbers carried float noise (degree_minutes
 * 55.199999999999996, temperatures 5.119992). Every temperature a reply
 * carries, and every value computed from temperatures, has at most the
 * series' decimals.
 */

/** Decimals of a number as JSON writes it (1e-7 counts 7). */
function decimals(n: number): number {
  const [mantissa, exponent] = String(n).split('e');
  const fraction = mantissa!.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/** Every number under a key naming a temperature or degree-minutes, with its path. */
function temperatureNumbers(value: unknown, path = '', inTemp = false): [string, number][] {
  if (typeof value === 'number') return inTemp ? [[path, value]] : [];
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => temperatureNumbers(v, `${path}[${i}]`, inTemp));
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) =>
      temperatureNumbers(v, `${path}.${k}`, inTemp || /temp|degree_minutes/.test(k)),
    );
  }
  return [];
}

const SEED = 20_261_124;

describe('numbers at the stored precision [RULE-SERIES-3, SPEC-9.1]', () => {
  it('roundStored: at most STORED_DECIMALS decimals, within half a step, idempotent', () => {
    expect(roundStored(55.199999999999996)).toBe(55.2);
    expect(asFloat4Decimal(5.119992)).toBe(5.12);
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (v) => {
        const r = roundStored(v);
        expect(decimals(r)).toBeLessThanOrEqual(STORED_DECIMALS);
        expect(Math.abs(r - v)).toBeLessThanOrEqual(0.5 * 10 ** -STORED_DECIMALS + 1e-9);
        expect(roundStored(r)).toBe(r);
      }),
      { seed: SEED, numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.double({ min: -100, max: 200, noNaN: true }), (v) => {
        const stored = asFloat4Decimal(v);
        expect(decimals(stored)).toBeLessThanOrEqual(STORED_DECIMALS);
        // What is stored reads back as itself.
        expect(asFloat4Decimal(stored)).toBe(stored);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  describe('through HTTP', () => {
    let t: TestApp;
    let device: TokenClient;
    beforeAll(async () => {
      t = await createTestApp();
      ({ device } = await deviceUser(t));
    });
    afterAll(() => t.close());

    async function json(url: string): Promise<unknown> {
      const res = await device.get(url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json();
    }

    it('record, records, scans, alarms, sensors and temperature replies carry no float noise', async () => {
      const temps = fc.array(
        fc.double({ min: -30, max: 40, noNaN: true, noDefaultInfinity: true }),
        {
          minLength: 2,
          maxLength: 40,
        },
      );
      await fc.assert(
        fc.asyncProperty(temps, fc.integer({ min: 30, max: 600 }), async (points, interval) => {
          const sn = serial('PREC');
          const start = epoch(new Date()) - 2 * 86_400;
          const body = (extra: Record<string, unknown>) =>
            xt1Body(sn, { measurement_interval: interval, start_time_seconds: start, ...extra });
          const started = await device.post(
            '/api/devices/xt1/start-action/',
            body({ timestamp: iso(start) }),
          );
          expect(started.statusCode, started.body).toBe(200);
          const id = (started.json() as { record_id: string }).record_id;
          const scanned = await device.post(
            '/api/devices/xt1/scans/',
            body({ timestamp: iso(start + points.length * interval), temps: points }),
          );
          expect(scanned.statusCode, scanned.body).toBe(200);

          const replies = {
            record: await json(`/api/devices/xt1/record/?record_id=${id}`),
            records: await json(`/api/devices/xt1/records/?search=${encodeURIComponent(sn)}`),
            scans: await json(`/api/devices/xt1/records/scans/?record_ids=${id}`),
            alarms: await json(
              `/api/devices/xt1/alarms/?record_id=${id}&include_acknowledged=true&include_dismissed=true&include_resolved=true`,
            ),
            sensors: await json('/api/devices/xt1/'),
            temperatures: await json(
              `/api/devices/aggregate/record-temperatures/?record_ids=${id}`,
            ),
          };
          const found = temperatureNumbers(replies);
          // The replies do carry temperatures: the record's summary and every point.
          expect(
            found.filter(([p]) =>
              /^\.temperatures\[0\]\.temperatures\[\d+\]\.temperature$/.test(p),
            ),
          ).toHaveLength(points.length);
          expect(found.some(([p]) => p.startsWith('.record.mean_kinetic_temp'))).toBe(true);
          const noisy = found.filter(([, n]) => decimals(n) > STORED_DECIMALS);
          expect(noisy).toEqual([]);
        }),
        { seed: SEED, numRuns: 12 },
      );
    });
  });
});
