import { detectExcursions, haversineMetres, mergeSlice, type SeriesValue } from '@coldtrace/domain';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { PLACES, placeOf } from './catalogue';
import { interpolateGreatCircle } from './geo';
import { PROFILES } from './profiles';
import { createRng } from './random';
import { lastPointAt, planFleet, planShipment, positionAt, type ShipmentPlan } from './shipment';
import { deliveryOrder, uploadSteps, type UploadStep } from './steps';

const NOW = Date.parse('2025-06-15T12:00:00Z') / 1000;
const options = { seed: 7, now: NOW, serialPrefix: 'T' };
const fleet = planFleet(options, 60);
const ids = Object.fromEntries(PLACES.map((p, i) => [p.key, String(i + 1)]));

const alarmsOf = (plan: ShipmentPlan, from = 0, to = plan.temps.length - 1) =>
  detectExcursions(
    {
      startTimeSeconds: plan.startSeconds,
      startDelay: 0,
      intervalSeconds: plan.intervalSeconds,
      temps: plan.temps,
    },
    {
      high_threshold: plan.product.high,
      low_threshold: plan.product.low,
      num_consecutive_excursions: plan.product.numConsecutive,
    },
    { firstIdx: from, lastIdx: to },
  ).filter((a) => a.kind === 'excursion');

describe('random [FEAT-SIMULATOR]', () => {
  it('is deterministic for a seed, and forks do not depend on the state', () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(createRng(43).next()).not.toBe(xs[0]);
    const fork = createRng(42).fork('x').next();
    const used = createRng(42);
    used.next();
    expect(used.fork('x').next()).toBe(fork);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe('plans [FEAT-SIMULATOR]', () => {
  it('are the same for the same seed and now, whatever the fleet size', () => {
    expect(planFleet(options, 60)).toEqual(fleet);
    expect(planFleet(options, 4)[3]).toEqual(fleet[3]);
    expect(uploadSteps(fleet[5]!, ids)).toEqual(uploadSteps(planFleet(options, 6)[5]!, ids));
    expect(planShipment({ ...options, seed: 8 }, 0).temps).not.toEqual(fleet[0]!.temps);
  });

  it('cover every tag family, profile and state, with a few hundred to a few thousand points', () => {
    const demo = fleet.slice(0, 36);
    expect(new Set(demo.map((p) => p.family))).toEqual(
      new Set(['XT1_NFC_MU', 'XT1_RT', 'NanoTag']),
    );
    expect(new Set(demo.map((p) => p.profile))).toEqual(new Set(Object.keys(PROFILES)));
    expect(new Set(demo.map((p) => p.state))).toEqual(
      new Set(['arrived', 'in-transit', 'at-origin']),
    );
    for (const plan of fleet) {
      expect(plan.temps.length).toBeGreaterThanOrEqual(300);
      expect(plan.temps.length).toBeLessThanOrEqual(3000);
      expect(plan.product.productClass).toBe(PROFILES[plan.profile].productClass);
      expect(new Set(plan.serial)).toBeTruthy();
    }
    expect(new Set(fleet.map((p) => p.serial)).size).toBe(fleet.length);
  });

  it('place each shipment in time as its state says', () => {
    for (const p of fleet) {
      expect(p.startSeconds < p.departSeconds && p.departSeconds < p.arriveSeconds).toBe(true);
      expect(p.arriveSeconds).toBeLessThanOrEqual(p.endSeconds);
      if (p.state === 'arrived') expect(p.endSeconds).toBeLessThan(NOW);
      if (p.state === 'in-transit') {
        expect(p.departSeconds).toBeLessThan(NOW);
        expect(p.arriveSeconds).toBeGreaterThan(NOW);
      }
      if (p.state === 'at-origin') {
        expect(p.startSeconds).toBeLessThan(NOW);
        expect(p.departSeconds).toBeGreaterThan(NOW);
      }
    }
  });
});

describe('positions [FEAT-SIMULATOR]', () => {
  it('interpolate along the great circle', () => {
    const basel = placeOf('basel');
    const singapore = placeOf('singapore');
    expect(interpolateGreatCircle(basel, singapore, 0).latitude).toBeCloseTo(basel.latitude, 9);
    expect(interpolateGreatCircle(basel, singapore, 1).longitude).toBeCloseTo(
      singapore.longitude,
      9,
    );
    const total = haversineMetres(basel, singapore);
    const mid = interpolateGreatCircle(basel, singapore, 0.25);
    expect(haversineMetres(basel, mid)).toBeCloseTo(total / 4, -2);
    expect(haversineMetres(mid, singapore)).toBeCloseTo((3 * total) / 4, -2);
  });

  it('stay at the docks before departure and after arrival, and on the route in between', () => {
    for (const p of fleet.slice(0, 20)) {
      const route = haversineMetres(p.origin, p.destination);
      expect(haversineMetres(p.origin, positionAt(p, p.startSeconds))).toBeLessThan(500);
      expect(haversineMetres(p.destination, positionAt(p, p.endSeconds))).toBeLessThan(500);
      let previous = 0;
      for (let k = 1; k < 10; k++) {
        const t = p.departSeconds + ((p.arriveSeconds - p.departSeconds) * k) / 10;
        const at = positionAt(p, t);
        const fromOrigin = haversineMetres(p.origin, at);
        // Within a few kilometres of the great circle: the detour is small...
        expect(fromOrigin + haversineMetres(at, p.destination) - route).toBeLessThan(15_000);
        // ...and the shipment moves on (give or take the noise, on the short lanes).
        expect(fromOrigin).toBeGreaterThan(previous - 5000);
        previous = fromOrigin;
      }
      expect(positionAt(p, p.departSeconds + 1000)).toEqual(positionAt(p, p.departSeconds + 1000));
    }
  });
});

describe('temperature profiles [FEAT-SIMULATOR]', () => {
  const transitWindow = (p: ShipmentPlan) => [
    Math.ceil((p.departSeconds - p.startSeconds) / p.intervalSeconds),
    Math.floor((p.arriveSeconds - p.startSeconds) / p.intervalSeconds),
  ];

  it('with an excursion really leave the limits, during the transit, long enough for an alarm', () => {
    const excursions = fleet.filter((p) => PROFILES[p.profile].excursion !== null);
    expect(excursions.length).toBeGreaterThan(10);
    for (const p of excursions) {
      const [from, to] = transitWindow(p);
      const alarms = alarmsOf(p, from, to);
      const direction = PROFILES[p.profile].excursion === 'high' ? 'ABOVE' : 'BELOW';
      expect(
        alarms.some((a) => a.above_or_below === direction),
        p.serial,
      ).toBe(true);
      expect(
        alarms.every((a) => a.above_or_below === direction),
        p.serial,
      ).toBe(true);
      const extreme = direction === 'ABOVE' ? Math.max(...p.temps) : Math.min(...p.temps);
      if (direction === 'ABOVE') expect(extreme).toBeGreaterThan(p.product.high);
      else expect(extreme).toBeLessThan(p.product.low);
    }
  });

  it('without one stay within the limits (frozen around -20 °C, CRT 15-25 °C)', () => {
    for (const p of fleet.filter((x) => PROFILES[x.profile].excursion === null)) {
      expect(alarmsOf(p), p.serial).toEqual([]);
      const mean = p.temps.reduce((s, t) => s + t, 0) / p.temps.length;
      if (p.profile === 'frozen') expect(Math.abs(mean + 20)).toBeLessThan(1.5);
      if (p.profile === 'crt') expect(mean > 17 && mean < 23).toBe(true);
      if (p.profile === 'pharma-clean') expect(Math.abs(mean - 5)).toBeLessThan(1.5);
    }
  });
});

const fill = (step: UploadStep) =>
  step.needsRecordId ? { ...step.body, record_id: '1' } : step.body;

describe('upload steps [FEAT-SIMULATOR]', () => {
  it('are valid bodies of their calls and never carry points after their time', () => {
    for (const plan of fleet.slice(0, 24)) {
      const steps = uploadSteps(plan, ids);
      for (const step of steps) {
        const parsed = (step.call.body as z.ZodType).safeParse(fill(step));
        expect(parsed.success, `${plan.serial} ${step.call.path}: ${parsed.error?.message}`).toBe(
          true,
        );
        const temps = (step.body as { temps?: number[] }).temps;
        if (temps && step.call.path.includes('/xt1/')) {
          expect(temps.length).toBe(lastPointAt(plan, step.at) + 1);
        }
      }
      const times = steps.map((s) => s.at);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
  });

  it('xt1: start, shipment, scans with the growing log, stop', () => {
    const plan = fleet.find((p) => p.family === 'XT1_NFC_MU' && p.state === 'arrived')!;
    const steps = uploadSteps(plan, ids);
    const paths = steps.map((s) => s.call.path.replace('/api/devices/xt1/', ''));
    expect(paths[0]).toBe('start-action/');
    expect(paths[1]).toBe('create-shipment-action/');
    expect(paths.at(-1)).toBe('stop-action/');
    const scans = steps.filter((s) => s.call.path.endsWith('/scans/'));
    expect(scans.length).toBeGreaterThanOrEqual(6);
    let before = 0;
    for (const scan of scans) {
      const temps = (scan.body as { temps: number[] }).temps;
      expect(temps.length).toBeGreaterThan(before);
      expect(temps).toEqual(plan.temps.slice(0, temps.length));
      before = temps.length;
    }
    // The stop reads the whole log.
    expect(steps.at(-1)!.body).toMatchObject({
      temps: plan.temps,
      stop_time_seconds: plan.endSeconds,
    });
  });

  it('rt: packets out of order and repeated still cover the whole series', () => {
    const rts = fleet.filter((p) => p.family === 'XT1_RT');
    let reordered = 0;
    let repeated = 0;
    for (const plan of rts) {
      const inOrder = uploadSteps(plan, ids).filter((s) => s.packet);
      const delivered = deliveryOrder(
        uploadSteps(plan, ids),
        createRng(3).fork(plan.serial),
      ).filter((s) => s.packet);
      if (delivered.some((s, i) => s.body !== inOrder[i]?.body)) reordered++;
      repeated += delivered.length - inOrder.length;
      let series: SeriesValue[] = [];
      for (const s of delivered) {
        const body = s.body as { temperatures_offset_index: number; temps: number[] };
        series = mergeSlice(series, body.temperatures_offset_index, body.temps).temps;
      }
      expect(series).toEqual(plan.temps);
    }
    expect(reordered).toBeGreaterThan(rts.length / 2);
    expect(repeated).toBeGreaterThan(0);
  });

  it('nanotag: frames with a position end at their last point; lost frames stay gaps', () => {
    for (const plan of fleet.filter((p) => p.family === 'NanoTag')) {
      let series: SeriesValue[] = [];
      for (const s of uploadSteps(plan, ids).filter((x) => x.packet)) {
        const body = s.body as {
          temps: number[];
          packet_end_time_seconds: number;
          location: object;
        };
        expect(body.location).toBeDefined();
        const last = Math.round(
          (body.packet_end_time_seconds - plan.startSeconds) / plan.intervalSeconds,
        );
        series = mergeSlice(series, last - body.temps.length + 1, body.temps).temps;
      }
      const expected = plan.temps.map((t, i) =>
        plan.lostFrames.includes(Math.floor(i / plan.packetPoints)) ? null : t,
      );
      while (expected.length > 0 && expected.at(-1) === null) expected.pop();
      expect(series).toEqual(expected);
    }
  });

  it('live plans log every few seconds and play the rest of the trip back over minutes', () => {
    const live = planFleet({ ...options, live: { intervalSeconds: 5 } }, 12).filter(
      (p) => p.state === 'in-transit',
    );
    expect(live.length).toBeGreaterThan(0);
    for (const p of live) {
      expect(p.intervalSeconds).toBe(5);
      const remaining = p.endSeconds - NOW;
      expect(remaining).toBeGreaterThan(60);
      expect(remaining).toBeLessThan(3 * 3600);
    }
  });
});
