import type { ProductClass } from './catalogue';
import type { Rng } from './random';

/**
 * Temperature profiles of a shipment. The product temperature follows its
 * environment with a first-order lag (an insulated box warms or cools slowly,
 * the active cooling brings it back faster):
 *
 *   T(k+1) = E + (T(k) - E) * exp(-interval / tau)
 *
 * where E is the set point of the regime (with a daily swing and a slow
 * wander) or, during an event, the ambient temperature of a warm dock or a
 * freezing tarmac. The tag reads T with a little noise, to 0.1 °C.
 */

export type ProfileName = 'pharma-clean' | 'pharma-high' | 'pharma-low' | 'frozen' | 'crt';

export interface ProfileInfo {
  productClass: ProductClass;
  /** The excursion the profile contains, if any. */
  excursion: 'high' | 'low' | null;
  description: string;
}

export const PROFILES: Readonly<Record<ProfileName, ProfileInfo>> = {
  'pharma-clean': {
    productClass: 'refrigerated',
    excursion: null,
    description: '2-8 °C, stays within its limits',
  },
  'pharma-high': {
    productClass: 'refrigerated',
    excursion: 'high',
    description: '2-8 °C with a high excursion on a warm dock at a transfer hub',
  },
  'pharma-low': {
    productClass: 'refrigerated',
    excursion: 'low',
    description: '2-8 °C with a low excursion (freezing) on a winter tarmac',
  },
  frozen: { productClass: 'frozen', excursion: null, description: 'frozen product around -20 °C' },
  crt: {
    productClass: 'controlled-room',
    excursion: null,
    description: 'controlled room temperature 15-25 °C with a daily swing',
  },
};

export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];

/** A time the product spends in another environment (epoch seconds). */
export interface TemperatureEvent {
  kind: 'warm' | 'cold';
  start: number;
  duration: number;
  /** Ambient temperature of the event, °C. */
  ambient: number;
  /** Time constant of the packaging during the event, seconds. */
  tau: number;
}

interface Regime {
  setPoint: number;
  dailySwing: number;
  /** The slow wander stays within ± this. */
  wander: number;
  /** Time constant of the active cooling (recovery), seconds. */
  recoveryTau: number;
}

const REGIMES: Readonly<Record<ProductClass, Regime>> = {
  refrigerated: { setPoint: 5, dailySwing: 0.6, wander: 0.9, recoveryTau: 2400 },
  frozen: { setPoint: -20, dailySwing: 0.8, wander: 1.5, recoveryTau: 3600 },
  'controlled-room': { setPoint: 20, dailySwing: 2.2, wander: 1.5, recoveryTau: 5400 },
};

/** An event of a profile with an excursion, placed at `start` (epoch seconds). */
export function excursionEvent(kind: 'warm' | 'cold', start: number, rng: Rng): TemperatureEvent {
  return kind === 'warm'
    ? {
        kind,
        start,
        duration: Math.round(rng.float(75, 120)) * 60,
        ambient: rng.float(24, 30),
        tau: rng.float(3.5, 4.5) * 3600,
      }
    : {
        kind,
        start,
        duration: Math.round(rng.float(90, 180)) * 60,
        ambient: rng.float(-12, -6),
        tau: rng.float(2.5, 3.5) * 3600,
      };
}

export interface SeriesSpec {
  productClass: ProductClass;
  /** Time of point 0, epoch seconds. */
  startSeconds: number;
  intervalSeconds: number;
  points: number;
  events?: readonly TemperatureEvent[];
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The temperatures (°C, 0.1 resolution) the tag logs, point 0 at `startSeconds`. */
export function temperatureSeries(spec: SeriesSpec, rng: Rng): number[] {
  const regime = REGIMES[spec.productClass];
  const phase = rng.float(0, 2 * Math.PI);
  const events = spec.events ?? [];
  const dt = spec.intervalSeconds;
  // Ornstein-Uhlenbeck wander with a time constant of about six hours.
  const wanderDecay = Math.exp(-dt / 21_600);
  const wanderStep = (regime.wander / 2) * Math.sqrt(1 - wanderDecay * wanderDecay);
  let wander = rng.normal(0, regime.wander / 3);
  const setPoint = (t: number) =>
    regime.setPoint +
    regime.dailySwing * Math.sin((2 * Math.PI * t) / 86_400 + phase) +
    Math.max(-regime.wander, Math.min(regime.wander, wander));

  const out = new Array<number>(spec.points);
  let t = spec.startSeconds;
  let temperature = setPoint(t);
  for (let i = 0; i < spec.points; i++) {
    out[i] = Math.max(-99.9, Math.min(199.9, round1(temperature + rng.normal(0, 0.05))));
    // Environment over the next interval.
    const event = events.find((e) => t >= e.start && t < e.start + e.duration);
    const target = event ? event.ambient : setPoint(t);
    const tau = event ? event.tau : regime.recoveryTau;
    temperature = target + (temperature - target) * Math.exp(-dt / tau);
    wander = wander * wanderDecay + rng.normal(0, wanderStep);
    t += dt;
  }
  return out;
}
