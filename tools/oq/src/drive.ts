import {
  authOrgsCreate,
  authSessionGet,
  evidenceKey,
  productsProductDefinitionsCreate,
  xt1Alarms,
  xt1Record,
  xt1ScanUpload,
  xt1StartAction,
  xt1StopAction,
  xt1TripEdit,
  type TExcursionAlarm,
  type TRecord,
} from '@coldtrace/contract';
import { ApiClient, ApiError } from '../../simulator/src/api-client';
import { CONSECUTIVE_B, CUMULATIVE_A, HIGH, INTERVAL_S, LOW, PRODUCT } from './fixtures';

/**
 * The OQ suite's calls to the instance: only its public HTTP API (the simulator's
 * client: session cookie, CSRF header, retries of 429/5xx), never its database.
 */

export interface Instance {
  baseUrl: string;
  /** The OpenAPI document's info.version (GET /api/schema/). */
  apiVersion: string;
  /** The server's evidence key id (GET /api/evidence/key/), null when the instance has none. */
  evidenceKeyId: string | null;
}

export interface Operator {
  userId: string;
  username: string;
  name: string;
  email: string | null;
}

/** Signs in, checks the account may create organizations, and reads what the report states. */
export async function connect(
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ client: ApiClient; operator: Operator; instance: Instance }> {
  const client = new ApiClient({ baseUrl, retries: 2 });
  await client.login(email, password);
  const me = await client.call(authSessionGet);
  if (!me.is_server_admin) {
    throw new Error(
      `${email} is not a server administrator: only a server administrator can create the OQ organization`,
    );
  }
  const schema = await client.request<{ info?: { version?: string } }>('GET', '/api/schema/');
  const key = await client.call(evidenceKey).catch(() => undefined);
  const name = [me.first_name, me.last_name].filter((p) => p && p.trim() !== '').join(' ');
  return {
    client,
    operator: {
      userId: me.id,
      username: me.username,
      name: name || me.username,
      email: me.email ?? null,
    },
    instance: {
      baseUrl: client.baseUrl,
      apiVersion: schema.info?.version ?? 'unknown',
      evidenceKeyId: key?.key_id ?? null,
    },
  };
}

/** The run's names: the organization, the product, tag serial numbers, the shipment reference. */
export interface RunNames {
  stamp: string;
  organization: string;
  product: string;
  shipment: string;
  serial: (leg: 'A' | 'B' | 'C') => string;
}

export function runNames(now: Date): RunNames {
  // 2026-07-14T10:22:05.123Z -> 20260714T102205.123Z
  const stamp = now.toISOString().slice(0, 23).replace(/[-:]/g, '') + 'Z';
  return {
    stamp,
    organization: `OQ test organization ${stamp} (operational qualification; not for use)`,
    product: `OQ product ${stamp}`,
    shipment: `OQ-SHIP-${stamp}`,
    serial: (leg) => `OQ${stamp}${leg}`,
  };
}

/** Creates the throwaway organization, switches the session to it, and creates the product. */
export async function createOrganization(client: ApiClient, names: RunNames) {
  const org = await client.call(authOrgsCreate, { body: { name: names.organization } });
  await client.useOrganization(org.id);
  await client.call(productsProductDefinitionsCreate, {
    body: {
      product_name: names.product,
      high_threshold: PRODUCT.high_threshold,
      low_threshold: PRODUCT.low_threshold,
      num_consecutive_excursions: PRODUCT.num_consecutive_excursions,
      stability_budget: PRODUCT.bands.map((b) => ({ ...b })),
    },
  });
  return org;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export interface Leg {
  serial: string;
  start: number;
  temps: readonly number[];
  extra?: Record<string, unknown>;
}

function xt1Body(leg: Leg, at: number) {
  return {
    tag_id: leg.serial,
    tag_serial_number: leg.serial,
    tag_type: 'XT1_NFC_MU' as const,
    timestamp: iso(at),
    high_threshold: HIGH,
    low_threshold: LOW,
    measurement_interval: INTERVAL_S,
    start_delay: 0,
    start_time_seconds: leg.start,
    mobile_device_type: 'ANDROID' as const,
    ...leg.extra,
  };
}

/**
 * An xt1 shipment as the phone app sends it: the start, a scan carrying the whole
 * log, the same scan again when `repeatScan` (a phone retrying), and the stop
 * one interval after the last point when `stop`. Answers the record id.
 */
export async function uploadLeg(
  client: ApiClient,
  leg: Leg,
  options: { stop: boolean; repeatScan?: boolean; afterFirstScan?: (id: string) => Promise<void> },
): Promise<string> {
  const started = await client.call(xt1StartAction, { body: xt1Body(leg, leg.start) });
  const recordId = started.record_id;
  if (!recordId) throw new Error(`start-action of ${leg.serial} answered no record_id`);
  const end = leg.start + leg.temps.length * INTERVAL_S;
  const scan = { ...xt1Body(leg, end), temps: [...leg.temps] };
  await client.call(xt1ScanUpload, { body: scan });
  await options.afterFirstScan?.(recordId);
  if (options.repeatScan) await client.call(xt1ScanUpload, { body: scan });
  if (options.stop) {
    await client.call(xt1StopAction, {
      body: { ...xt1Body(leg, end), stop_time_seconds: end, temps: [...leg.temps] },
    });
  }
  return recordId;
}

/** The legs of the run: A and B are one shipment of the product, C stands alone. */
export function legs(names: RunNames, t0: number, offsetsH: { A: number; B: number; C: number }) {
  const shipment = { product_designation: names.product, shipping_reference: names.shipment };
  return {
    A: (temps: readonly number[]): Leg => ({
      serial: names.serial('A'),
      start: t0 + offsetsH.A * 3600,
      temps,
      extra: {
        ...shipment,
        primary_reference: 'OQ leg A',
        num_consecutive_excursions: 1,
        ...CUMULATIVE_A,
      },
    }),
    B: (temps: readonly number[]): Leg => ({
      serial: names.serial('B'),
      start: t0 + offsetsH.B * 3600,
      temps,
      extra: {
        ...shipment,
        primary_reference: 'OQ leg B',
        num_consecutive_excursions: CONSECUTIVE_B,
      },
    }),
    C: (temps: readonly number[]): Leg => ({
      serial: names.serial('C'),
      start: t0 + offsetsH.C * 3600,
      temps,
      extra: { primary_reference: 'OQ transit', num_consecutive_excursions: 1 },
    }),
  };
}

/** A manual trip edit (no alarm on the record: a reason, no signature). */
export function editTrip(
  client: ApiClient,
  recordId: string,
  times: { begin_time?: string; end_time?: string },
) {
  return client.call(xt1TripEdit, {
    body: { record_id: recordId, ...times, reason: 'OQ: trip times entered by the suite' },
  });
}

export async function readRecord(client: ApiClient, recordId: string): Promise<TRecord> {
  return client.call(xt1Record, { query: { record_id: recordId } });
}

/** Every alarm of a record: open, closed, acknowledged and dismissed. */
export async function readAlarms(client: ApiClient, recordId: string): Promise<TExcursionAlarm[]> {
  return client.call(xt1Alarms, {
    query: {
      record_id: recordId,
      include_acknowledged: true,
      include_dismissed: true,
      include_closed: true,
    },
  });
}

/** What a refused call answered: its status, code, message and fields (or what it threw). */
export interface Refusal {
  status: number | null;
  code: string | null;
  message: string | null;
  fields: Record<string, string>;
}

/** Runs a call that should be refused; answers the refusal (status null: it was accepted). */
export async function refusal(call: () => Promise<unknown>): Promise<Refusal> {
  try {
    await call();
    return { status: null, code: null, message: null, fields: {} };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const body = (err.body ?? {}) as {
      code?: string;
      message?: string;
      fields?: Record<string, string>;
    };
    return {
      status: err.status,
      code: body.code ?? null,
      message: body.message ?? null,
      fields: body.fields ?? {},
    };
  }
}
