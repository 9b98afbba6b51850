import {
  nanotagConfigureAction,
  nanotagFirstSampleAction,
  nanotagGeneralizedData,
  nanotagHealthAction,
  nanotagPackets,
  nanotagStatusAction,
  nanotagTransmitInterval,
  rtConfigureAction,
  rtPackets,
  rtStartAction,
  rtStopAction,
  xt1CreateShipmentAction,
  xt1ScanUpload,
  xt1StartAction,
  xt1StopAction,
  xt1TripEdit,
  xt1UpdateShipmentAction,
  type CallBody,
  type CallDef,
} from '@coldtrace/contract';
import type { PlaceKey } from './catalogue';
import type { Rng } from './random';
import { lastPointAt, pointTime, positionAt, type ShipmentPlan } from './shipment';

/**
 * The uploads of a shipment, in the order they happen, as the phone app
 * (xt1 scans and actions, shipment details), an rt gateway (configure, start,
 * packets, stop), a nanotag (settings, first sample, frames with a position,
 * status, battery) and a dispatcher (trip times of rt shipments) send them.
 * Each step is a call of the contract with its body and the device time it
 * happens at; points after that time are never in it.
 */

export interface UploadStep {
  /** The call (path, method) of the public API. */
  call: CallDef;
  body: Record<string, unknown>;
  /** Device time (epoch seconds) the upload is made at: the driver sends it once that time has come. */
  at: number;
  /** The body needs `record_id` (from an earlier reply for the same shipment). */
  needsRecordId?: boolean;
  /** An rt packet or nanotag frame: may arrive out of order and more than once. */
  packet?: boolean;
  /** Temperatures the upload carries. */
  points: number;
}

/** Ids of the travel locations (by place) the organization has. */
export type LocationIds = Readonly<Partial<Record<PlaceKey, string>>>;

function step<C extends CallDef>(
  call: C,
  body: CallBody<C>,
  at: number,
  extra: Partial<Pick<UploadStep, 'needsRecordId' | 'packet'>> = {},
): UploadStep {
  const temps = (body as { temps?: unknown[] }).temps;
  return {
    call,
    body: body as Record<string, unknown>,
    at: Math.floor(at),
    points: temps?.length ?? 0,
    ...extra,
  };
}

const iso = (seconds: number) => new Date(Math.floor(seconds) * 1000).toISOString();
const MINUTE = 60;
const APP_VERSION = '4.2.1';

/** Deterministic minutes of delay for step `n` of a plan (between lo and hi minutes). */
function jitter(plan: ShipmentPlan, n: number, lo: number, hi: number): number {
  const x = Math.sin(plan.seed * 0.0001 + n * 12.9898) * 43_758.5453;
  const f = x - Math.floor(x);
  // Live plans are compressed: keep delays short.
  const scale = plan.intervalSeconds < 30 ? 0.1 : 1;
  return Math.round((lo + f * (hi - lo)) * MINUTE * scale);
}

function settings(plan: ShipmentPlan) {
  const p = plan.product;
  return {
    high_threshold: p.high,
    low_threshold: p.low,
    num_consecutive_excursions: p.numConsecutive,
  };
}

function cumulative(plan: ShipmentPlan) {
  const p = plan.product;
  return {
    ...(p.cumulativeHigh !== undefined ? { cumulative_high_threshold: p.cumulativeHigh } : {}),
    ...(p.cumulativeDurationHigh !== undefined
      ? { cumulative_duration_high: p.cumulativeDurationHigh }
      : {}),
    ...(p.cumulativeLow !== undefined ? { cumulative_low_threshold: p.cumulativeLow } : {}),
    ...(p.cumulativeDurationLow !== undefined
      ? { cumulative_duration_low: p.cumulativeDurationLow }
      : {}),
  };
}

/** The fields every xt1 upload of this tag carries (the report form's required ones). */
function xt1Base(plan: ShipmentPlan, at: number) {
  const position = positionAt(plan, at);
  return {
    tag_id: plan.serial,
    tag_serial_number: plan.serial,
    tag_type: plan.family,
    timestamp: iso(at),
    ...settings(plan),
    measurement_interval: plan.intervalSeconds,
    start_delay: 0,
    start_time_seconds: plan.startSeconds,
    mobile_device_type: plan.mobileDeviceType,
    mobile_app_version: APP_VERSION,
    latitude: position.latitude,
    longitude: position.longitude,
  };
}

/** The phone app creates the shipment: references, parties, carrier, product. */
function createShipment(plan: ShipmentPlan, at: number, ids: LocationIds): UploadStep {
  const shipper = ids[plan.origin.key];
  const receiver = ids[plan.destination.key];
  return step(
    xt1CreateShipmentAction,
    {
      ...xt1Base(plan, at),
      ...cumulative(plan),
      primary_reference: plan.references.primary,
      secondary_reference: plan.references.secondary,
      program_name: plan.references.program,
      po_number: plan.references.po,
      carrier: plan.carrier,
      product_designation: plan.product.name,
      ...(shipper !== undefined ? { shipper_name_address_id: shipper } : {}),
      ...(receiver !== undefined ? { receiver_name_address_id: receiver } : {}),
    },
    at,
  );
}

/** The log of an xt1 tag read at `at`: every point so far (an NFC scan reads the whole log). */
function logAt(plan: ShipmentPlan, at: number): number[] {
  return plan.temps.slice(0, lastPointAt(plan, at) + 1);
}

function xt1Steps(plan: ShipmentPlan, ids: LocationIds): UploadStep[] {
  const { startSeconds: start, departSeconds: depart, arriveSeconds: arrive } = plan;
  const transit = arrive - depart;
  const steps: UploadStep[] = [
    step(xt1StartAction, { ...xt1Base(plan, start), ...cumulative(plan) }, start),
    createShipment(plan, start + jitter(plan, 1, 5, 20), ids),
  ];
  const scan = (at: number, extra: Record<string, unknown> = {}) =>
    step(
      xt1ScanUpload,
      {
        ...xt1Base(plan, at),
        battery_health: 'OK',
        memory_health: 'OK',
        temps: logAt(plan, at),
        ...extra,
      },
      at,
    );
  // A check at packing, loading at the origin dock, then along the way (hub, customs, handover).
  steps.push(scan(start + (depart - start) * 0.15));
  steps.push(scan(depart - jitter(plan, 2, 10, 40)));
  // Handover to the carrier (the trip begins there), hub, customs, last mile.
  for (const [n, f] of [0.04, 0.25, 0.55, 0.85].entries()) {
    steps.push(scan(depart + transit * (f + (jitter(plan, 3 + n, 0, 10) / MINUTE) * 0.005)));
  }
  // The air waybill or CMR number is added once the carrier has taken the goods.
  if (plan.index % 3 === 0) {
    const at = depart + jitter(plan, 7, 15, 45);
    steps.push(
      step(
        xt1UpdateShipmentAction,
        {
          tag_id: plan.serial,
          start_time_seconds: plan.startSeconds,
          timestamp: iso(at),
          shipping_reference: plan.references.shipping,
          mobile_device_type: plan.mobileDeviceType,
          mobile_app_version: APP_VERSION,
        },
        at,
      ),
    );
  }
  // Arrival at the destination dock, goods received, tag stopped.
  steps.push(scan(arrive + jitter(plan, 8, 5, 20)));
  if (plan.stops) {
    steps.push(scan(plan.endSeconds - jitter(plan, 9, 5, 15)));
    steps.push(
      step(
        xt1StopAction,
        {
          ...xt1Base(plan, plan.endSeconds),
          stop_time_seconds: plan.endSeconds,
          temps: logAt(plan, plan.endSeconds),
        },
        plan.endSeconds,
      ),
    );
  }
  return steps;
}

/** Packets of `packetPoints` points, sent when their last point is logged (plus a little latency). */
function slices(
  plan: ShipmentPlan,
): { offset: number; temps: number[]; end: number; frame: number }[] {
  const out = [];
  for (
    let offset = 0, frame = 0;
    offset < plan.temps.length;
    offset += plan.packetPoints, frame++
  ) {
    const temps = plan.temps.slice(offset, offset + plan.packetPoints);
    out.push({ offset, temps, end: pointTime(plan, offset + temps.length - 1), frame });
  }
  return out;
}

function rtSteps(plan: ShipmentPlan, ids: LocationIds): UploadStep[] {
  const start = plan.startSeconds;
  const configuredAt = start - jitter(plan, 1, 10, 60);
  const steps: UploadStep[] = [
    step(
      rtConfigureAction,
      {
        tag_id: plan.serial,
        request_id: `cfg-${plan.serial}-${start}`,
        timestamp: iso(configuredAt),
        ...settings(plan),
        start_delay: 0,
        measurement_interval: plan.intervalSeconds,
        max_transmit_interval: Math.min(86_400, plan.packetPoints * plan.intervalSeconds),
      },
      configuredAt,
    ),
    step(
      rtStartAction,
      { tag_id: plan.serial, start_time_seconds: start, timestamp: iso(start) },
      start,
    ),
    createShipment(plan, start + jitter(plan, 2, 5, 20), ids),
  ];
  for (const s of slices(plan)) {
    steps.push(
      step(
        rtPackets,
        {
          tag_id: plan.serial,
          start_time_seconds: start,
          temperatures_offset_index: s.offset,
          packet_end_time_seconds: s.end,
          temps: s.temps,
        },
        s.end + Math.round(jitter(plan, 100 + s.frame, 0, 1) / 4),
        { packet: true },
      ),
    );
  }
  // The dispatcher enters the trip times (rt tags report no position).
  const departedAt = plan.departSeconds + jitter(plan, 3, 20, 60);
  steps.push(
    step(
      xt1TripEdit,
      {
        record_id: '',
        begin_time: iso(plan.departSeconds),
        timestamp: iso(departedAt),
        reason: 'Departure confirmed by the carrier',
      },
      departedAt,
      { needsRecordId: true },
    ),
  );
  const arrivedAt = plan.arriveSeconds + jitter(plan, 4, 20, 60);
  steps.push(
    step(
      xt1TripEdit,
      {
        record_id: '',
        end_time: iso(plan.arriveSeconds),
        timestamp: iso(arrivedAt),
        reason: 'Arrival confirmed by the receiver',
      },
      arrivedAt,
      { needsRecordId: true },
    ),
  );
  if (plan.stops) {
    steps.push(
      step(
        rtStopAction,
        {
          tag_id: plan.serial,
          request_id: `stop-${plan.serial}-${start}`,
          start_time_seconds: start,
          stop_time_seconds: plan.endSeconds,
          timestamp: iso(plan.endSeconds),
        },
        plan.endSeconds,
      ),
    );
  }
  return steps;
}

function nanotagSteps(plan: ShipmentPlan, ids: LocationIds): UploadStep[] {
  const start = plan.startSeconds;
  const setUp = start - jitter(plan, 1, 20, 60);
  const steps: UploadStep[] = [
    step(
      nanotagGeneralizedData,
      {
        tag_id: plan.serial,
        ...settings(plan),
        measurement_interval: plan.intervalSeconds,
        start_delay: 0,
      },
      setUp,
    ),
    step(
      nanotagConfigureAction,
      {
        tag_id: plan.serial,
        record_period_seconds: plan.intervalSeconds,
        report_period_seconds: Math.min(86_400, plan.packetPoints * plan.intervalSeconds),
      },
      setUp + 30,
    ),
    step(
      nanotagTransmitInterval,
      {
        tag_id: plan.serial,
        transmit_interval: Math.min(86_400, plan.packetPoints * plan.intervalSeconds),
      },
      setUp + 60,
    ),
    step(
      nanotagFirstSampleAction,
      { tag_id: plan.serial, first_sample_timestamp: iso(start) },
      start,
    ),
    step(nanotagHealthAction, { tag_id: plan.serial, battery_health: 'OK' }, start + 30),
    createShipment(plan, start + jitter(plan, 2, 5, 20), ids),
  ];
  const lost = new Set(plan.lostFrames);
  for (const s of slices(plan)) {
    if (lost.has(s.frame)) continue;
    const position = positionAt(plan, s.end);
    steps.push(
      step(
        nanotagPackets,
        {
          tag_id: plan.serial,
          location: position,
          temps: s.temps,
          packet_end_time_seconds: s.end,
          frame_id: `F${String(s.frame).padStart(5, '0')}`,
        },
        s.end + Math.round(jitter(plan, 100 + s.frame, 0, 1) / 4),
        { packet: true },
      ),
    );
    if (s.frame % 10 === 9) {
      const last = s.offset + s.temps.length - 1;
      steps.push(
        step(
          nanotagStatusAction,
          {
            tag_id: plan.serial,
            last_sample_number: last,
            last_sample_timestamp: iso(s.end),
          },
          s.end + 1,
        ),
      );
    }
  }
  // Batteries of long trips run low near the end.
  if (plan.arriveSeconds - plan.startSeconds > 48 * 3600) {
    steps.push(
      step(
        nanotagHealthAction,
        { tag_id: plan.serial, battery_health: 'LOW_BATTERY' },
        plan.arriveSeconds,
      ),
    );
  }
  return steps;
}

/** Every upload of the shipment's whole life, by device time (those after `now` have not happened). */
export function uploadSteps(plan: ShipmentPlan, ids: LocationIds): UploadStep[] {
  const steps =
    plan.family === 'XT1_NFC_MU'
      ? xt1Steps(plan, ids)
      : plan.family === 'XT1_RT'
        ? rtSteps(plan, ids)
        : nanotagSteps(plan, ids);
  return steps
    .map((s, order) => ({ s, order }))
    .sort((a, b) => a.s.at - b.s.at || a.order - b.order)
    .map(({ s }) => s);
}

export interface DeliveryOptions {
  /** Packets delivered together (a gateway's buffer) are shuffled within groups of this size. */
  window?: number;
  /** Share of packets delivered twice (a retry after a lost acknowledgement). */
  duplicateRate?: number;
}

/**
 * How the network delivers the steps: packets in groups of `window`, each group
 * shuffled and sent when its last packet is ready, some packets again in the
 * next group. Other steps keep their place. Deterministic for an `rng`.
 */
export function deliveryOrder(
  steps: readonly UploadStep[],
  rng: Rng,
  options: DeliveryOptions = {},
): UploadStep[] {
  const window = Math.max(1, options.window ?? 4);
  const duplicateRate = options.duplicateRate ?? 0.1;
  const out: UploadStep[] = [];
  let carried: UploadStep[] = [];
  let group: UploadStep[] = [];
  const flush = () => {
    if (group.length === 0 && carried.length === 0) return;
    const at = Math.max(...group.map((s) => s.at), ...carried.map((s) => s.at));
    const next: UploadStep[] = [];
    for (const s of group) if (rng.chance(duplicateRate)) next.push(s);
    for (const s of rng.shuffle([...group, ...carried])) out.push({ ...s, at });
    carried = next;
    group = [];
  };
  for (const s of steps) {
    if (!s.packet) {
      flush();
      flush();
      out.push(s);
      continue;
    }
    group.push(s);
    if (group.length >= window) flush();
  }
  flush();
  flush();
  return out
    .map((s, order) => ({ s, order }))
    .sort((a, b) => a.s.at - b.s.at || a.order - b.order)
    .map(({ s }) => s);
}
