import {
  CARRIERS,
  LANES,
  PRODUCTS,
  placeOf,
  type Lane,
  type Place,
  type ProductSpec,
} from './catalogue';
import {
  haversineMetres,
  interpolateGreatCircle,
  offsetMetres,
  roundPosition,
  type GeoPoint,
} from './geo';
import {
  PROFILES,
  excursionEvent,
  temperatureSeries,
  type ProfileName,
  type TemperatureEvent,
} from './profiles';
import { createRng, hashSeed, type Rng } from './random';

/**
 * Shipment plans: everything about one simulated shipment, decided up front
 * from a seed (so the same seed gives the same fleet): the tag, the lane, the
 * product and its profile, the timeline (start, departure, arrival, stop) and
 * the whole temperature log. The upload steps (`steps.ts`) are derived from it.
 *
 * Times are anchored at `now`: an `arrived` shipment ended before now, an
 * `in-transit` one departed and has not arrived, an `at-origin` one started
 * but has not left. Points and uploads after `now` have not happened yet.
 */

export type TagFamily = 'XT1_NFC_MU' | 'XT1_RT' | 'NanoTag';
export type ShipmentState = 'arrived' | 'in-transit' | 'at-origin';

export const TAG_FAMILIES: readonly TagFamily[] = ['XT1_NFC_MU', 'XT1_RT', 'NanoTag'];
const FAMILY_CODE: Record<TagFamily, string> = { XT1_NFC_MU: 'XT1', XT1_RT: 'RT', NanoTag: 'NANO' };

/** Profiles in turn (each shown with every tag family), states in turn. */
const PROFILE_CYCLE: readonly ProfileName[] = [
  'pharma-high',
  'pharma-clean',
  'pharma-low',
  'crt',
  'frozen',
  'pharma-clean',
];
const STATE_CYCLE: readonly ShipmentState[] = [
  'arrived',
  'in-transit',
  'arrived',
  'at-origin',
  'in-transit',
  'arrived',
  'arrived',
];
const INTERVALS = [60, 120, 300, 600, 900] as const;
const HOUR = 3600;

export interface PlanOptions {
  seed: number;
  /** "Now", epoch seconds: the plan's times are back-dated from it. */
  now: number;
  /** Serial numbers are `<prefix>-<XT1|RT|NANO>-<0001>`; serial numbers are unique across organizations. */
  serialPrefix: string;
  /**
   * Live: shipments in transit log every `intervalSeconds` (a few seconds) and
   * play their remaining trip back over minutes, so a dashboard changes live.
   */
  live?: { intervalSeconds: number } | undefined;
  /** Bounds of a record's length (default 300 to 3000 points). */
  minPoints?: number;
  maxPoints?: number;
  /** At most this many rt packets or nanotag frames per shipment (default 40). */
  maxPackets?: number;
}

export interface ShipmentReferences {
  primary: string;
  secondary: string;
  shipping: string;
  po: string;
  program: string;
}

export interface ShipmentPlan {
  index: number;
  /** Seed of this shipment (positions and noise are derived from it). */
  seed: number;
  serial: string;
  family: TagFamily;
  state: ShipmentState;
  profile: ProfileName;
  product: ProductSpec;
  carrier: string;
  lane: Lane;
  origin: Place;
  destination: Place;
  mobileDeviceType: 'ANDROID' | 'IOS';
  /** Seconds between points. */
  intervalSeconds: number;
  /** start_time_seconds: point 0 (start delay 0). */
  startSeconds: number;
  departSeconds: number;
  arriveSeconds: number;
  /** Time of the last planned point (and of the stop, when the tag is stopped). */
  endSeconds: number;
  /** The whole planned log; point i at startSeconds + i * intervalSeconds. */
  temps: number[];
  /** Warm dock or freezing tarmac, in the plan's times. */
  events: TemperatureEvent[];
  references: ShipmentReferences;
  /** Points per rt packet or nanotag frame. */
  packetPoints: number;
  /** Nanotag frames lost on the air (their points stay gaps). */
  lostFrames: number[];
  /** The tag is stopped at the end (xt1 and rt that arrived; nanotags have no stop). */
  stops: boolean;
  /** `now` of the plan. */
  now: number;
}

/** Time of point `i`. */
export const pointTime = (plan: ShipmentPlan, i: number) =>
  plan.startSeconds + i * plan.intervalSeconds;

/** Index of the last point logged at or before `t` (-1 before the start), within the plan. */
export function lastPointAt(plan: ShipmentPlan, t: number): number {
  if (t < plan.startSeconds) return -1;
  return Math.min(
    plan.temps.length - 1,
    Math.floor((t - plan.startSeconds) / plan.intervalSeconds),
  );
}

/**
 * Where the tag is at `t`: at the origin dock before departure, along the
 * great circle in transit (with a little noise), at the destination dock after
 * arrival. Deterministic for a plan and a time.
 */
export function positionAt(plan: ShipmentPlan, t: number): GeoPoint {
  const rng = createRng(hashSeed(plan.seed, 'position', Math.round(t)));
  const dock = (p: GeoPoint) => offsetMetres(p, rng.normal(0, 50), rng.normal(0, 50));
  if (t < plan.departSeconds) return roundPosition(dock(plan.origin));
  if (t >= plan.arriveSeconds) return roundPosition(dock(plan.destination));
  const f = (t - plan.departSeconds) / (plan.arriveSeconds - plan.departSeconds);
  const on = interpolateGreatCircle(plan.origin, plan.destination, f);
  // Roads and airways wander around the great circle; less so near the ends.
  const spread = 1500 * Math.sin(Math.PI * f);
  return roundPosition(offsetMetres(on, rng.normal(0, spread), rng.normal(0, spread)));
}

function transitSeconds(lane: Lane, rng: Rng): number {
  const km = haversineMetres(placeOf(lane.from), placeOf(lane.to)) / 1000;
  return lane.mode === 'road'
    ? (km / rng.float(55, 75) + rng.float(0.5, 3)) * HOUR
    : (km / rng.float(650, 800) + rng.float(10, 30)) * HOUR;
}

function chooseInterval(
  duration: number,
  min: number,
  max: number,
  preferShort: boolean,
  rng: Rng,
): number {
  const fits = INTERVALS.filter((i) => duration / i + 1 >= min && duration / i + 1 <= max);
  const short = fits.filter((i) => i <= 600);
  const pool = preferShort && short.length > 0 ? short : fits;
  if (pool.length > 0) return rng.pick(pool);
  // Nothing fits: the interval that comes closest.
  const [shortest, longest] = [INTERVALS[0], INTERVALS[INTERVALS.length - 1]!];
  return duration / shortest + 1 < min ? shortest : longest;
}

function references(index: number, lane: Lane, rng: Rng): ShipmentReferences {
  const digits = (n: number) => String(rng.int(10 ** (n - 1), 10 ** n - 1));
  return {
    primary: `SHP-${String(index + 1).padStart(4, '0')}-${digits(4)}`,
    secondary: `LOT ${String.fromCharCode(65 + rng.int(0, 25))}${digits(5)}`,
    shipping: lane.mode === 'air' ? `${digits(3)}-${digits(8)}` : `CMR-${digits(6)}`,
    po: `PO-${digits(6)}`,
    program: rng.pick(['Vaccines Europe', 'Global Clinical Supply', 'Specialty Care', 'Diabetes']),
  };
}

/** The plan of shipment `index` of a fleet (independent of how many shipments the fleet has). */
export function planShipment(options: PlanOptions, index: number): ShipmentPlan {
  const seed = hashSeed(options.seed, 'shipment', index);
  const rng = createRng(seed);
  const minPoints = options.minPoints ?? 300;
  const maxPoints = options.maxPoints ?? 3000;
  const maxPackets = options.maxPackets ?? 40;

  const family = TAG_FAMILIES[index % TAG_FAMILIES.length]!;
  const profile = PROFILE_CYCLE[Math.floor(index / TAG_FAMILIES.length) % PROFILE_CYCLE.length]!;
  const state = STATE_CYCLE[index % STATE_CYCLE.length]!;
  const info = PROFILES[profile];
  const product = rng.pick(PRODUCTS.filter((p) => p.productClass === info.productClass));
  const lane = rng.pick(LANES);
  const carrier = rng.pick(CARRIERS[lane.mode]);

  // The real timeline (seconds from the start).
  const dwellOrigin = rng.float(1.5, 5) * HOUR;
  const transit = transitSeconds(lane, rng);
  const dwellDestination = rng.float(1, 4) * HOUR;
  const duration = dwellOrigin + transit + dwellDestination;
  const live = options.live !== undefined && state === 'in-transit';

  let intervalSeconds: number;
  let points: number;
  let virtualInterval: number;
  if (live) {
    intervalSeconds = options.live!.intervalSeconds;
    points = rng.int(720, 1440);
    virtualInterval = duration / (points - 1);
  } else {
    intervalSeconds = chooseInterval(duration, minPoints, maxPoints, info.excursion !== null, rng);
    points = Math.floor(duration / intervalSeconds) + 1;
    virtualInterval = intervalSeconds;
  }
  // Live plans play the real timeline back faster: one real interval per logged point.
  const scale = intervalSeconds / virtualInterval;

  // Events in real seconds from the start, well inside the transit (the evaluation window
  // begins at the first position away from the origin): at a transfer hub, 30-45 % of the way,
  // over by 85 % of it.
  const events: TemperatureEvent[] = [];
  if (info.excursion !== null) {
    const at = dwellOrigin + rng.float(0.3, 0.45) * transit;
    const event = excursionEvent(info.excursion === 'high' ? 'warm' : 'cold', at, rng);
    events.push({ ...event, duration: Math.min(event.duration, 0.4 * transit) });
  }
  const temps = temperatureSeries(
    {
      productClass: info.productClass,
      startSeconds: 0,
      intervalSeconds: virtualInterval,
      points,
      events,
    },
    rng,
  );

  // Anchor at now.
  const now = Math.floor(options.now);
  const span = (points - 1) * intervalSeconds;
  let start: number;
  if (state === 'arrived') {
    start = now - Math.round(rng.float(1, 240) * HOUR) - span;
  } else if (state === 'in-transit') {
    start = now - Math.round((dwellOrigin + rng.float(0.6, 0.92) * transit) * scale);
  } else {
    start = now - Math.round(rng.float(0.2, 0.9) * dwellOrigin * scale);
  }
  const at = (real: number) => start + Math.round(real * scale);
  const packetPoints =
    family === 'XT1_NFC_MU'
      ? 0
      : live
        ? rng.int(2, 5)
        : Math.max(
            Math.round(rng.float(1800, 3600) / intervalSeconds),
            Math.ceil(points / maxPackets),
            1,
          );
  const frames = packetPoints > 0 ? Math.ceil(points / packetPoints) : 0;
  const lostFrames =
    family === 'NanoTag'
      ? Array.from({ length: frames }, (_, f) => f).filter((f) => f > 1 && rng.chance(0.03))
      : [];

  return {
    index,
    seed,
    serial: `${options.serialPrefix}-${FAMILY_CODE[family]}-${String(index + 1).padStart(4, '0')}`,
    family,
    state,
    profile,
    product,
    carrier,
    lane,
    origin: placeOf(lane.from),
    destination: placeOf(lane.to),
    mobileDeviceType: rng.chance(0.6) ? 'ANDROID' : 'IOS',
    intervalSeconds,
    startSeconds: start,
    departSeconds: at(dwellOrigin),
    arriveSeconds: at(dwellOrigin + transit),
    endSeconds: start + span,
    temps,
    events: events.map((e) => ({
      ...e,
      start: at(e.start),
      duration: e.duration * scale,
      tau: e.tau * scale,
    })),
    references: references(index, lane, rng),
    packetPoints,
    lostFrames,
    stops: state === 'arrived' && family !== 'NanoTag',
    now,
  };
}

/** `count` shipments (shipment i is the same whatever `count` is). */
export function planFleet(options: PlanOptions, count: number): ShipmentPlan[] {
  return Array.from({ length: count }, (_, i) => planShipment(options, i));
}
