import {
  authOrgSettingsGet,
  productsCarrierDefinitionsCreate,
  productsCarrierDefinitionsList,
  productsProductDefinitionsCreate,
  productsProductDefinitionsList,
  productsTravelLocationsCreate,
  productsTravelLocationsList,
  xt1Alarms,
  xt1Record,
  type CallDef,
} from '@coldtrace/contract';
import type { ApiClient } from './api-client';
import {
  ALL_CARRIERS,
  PLACES,
  PRODUCTS,
  productDefinitionBody,
  travelLocationBody,
} from './catalogue';
import { createRng } from './random';
import type { ShipmentPlan } from './shipment';
import {
  deliveryOrder,
  uploadSteps,
  type DeliveryOptions,
  type LocationIds,
  type UploadStep,
} from './steps';

/**
 * Sends shipments through the public API: makes sure the demo configuration
 * exists (travel locations, products, carriers), then sends each shipment's
 * upload steps in device-time order (packets shuffled and some sent twice, as
 * a network delivers them). Fast mode sends what has happened by now at once;
 * live mode then keeps sending each step when its device time comes.
 */

export interface ConfigurationResult {
  locationIds: LocationIds;
  created: { locations: number; products: number; carriers: number };
}

/** Creates the demo locations, products and carriers the organization lacks (matched by name). */
export async function ensureDemoConfiguration(client: ApiClient): Promise<ConfigurationResult> {
  const created = { locations: 0, products: 0, carriers: 0 };
  const locations = await client.call(productsTravelLocationsList);
  const locationIds: Partial<Record<string, string>> = {};
  for (const place of PLACES) {
    let found = locations.find((l) => l.name === place.name);
    if (!found) {
      found = await client.call(productsTravelLocationsCreate, { body: travelLocationBody(place) });
      created.locations++;
    }
    if (found.id !== undefined) locationIds[place.key] = found.id;
  }
  const products = await client.call(productsProductDefinitionsList);
  for (const p of PRODUCTS) {
    if (products.some((d) => d.product_name === p.name)) continue;
    await client.call(productsProductDefinitionsCreate, { body: productDefinitionBody(p) });
    created.products++;
  }
  const carriers = await client.call(productsCarrierDefinitionsList);
  for (const name of ALL_CARRIERS) {
    if (carriers.some((c) => c.name?.toLowerCase() === name.toLowerCase())) continue;
    await client.call(productsCarrierDefinitionsCreate, { body: { name } });
    created.carriers++;
  }
  return { locationIds, created };
}

/** The organization's geo-fence, to tell how trips will be detected. */
export async function geoFence(client: ApiClient) {
  return (await client.call(authOrgSettingsGet)).geo_fence_settings;
}

export interface DriveOptions {
  /** Keep sending steps as their device time comes (default: only what has happened by now). */
  live?: boolean;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** How packets are delivered (out of order, repeated). */
  delivery?: DeliveryOptions;
  /** Seed of the delivery order. */
  seed?: number;
  /** Clock in epoch seconds (default: the real one). */
  now?: () => number;
  /** Stop waiting for future steps. */
  signal?: AbortSignal;
  onStep?: (plan: ShipmentPlan, step: UploadStep, result: StepResult) => void;
}

export type StepResult = { ok: true; recordId?: string } | { ok: false; error: string };

export interface ShipmentOutcome {
  plan: ShipmentPlan;
  recordId: string | undefined;
  /** Uploads answered 2xx (repeats included). */
  uploads: number;
  /** Uploads that were a packet sent again. */
  repeats: number;
  /** Temperatures sent (repeats and growing logs included). */
  pointsSent: number;
  /** Steps still in the future (in transit) when the run ended. */
  pending: number;
  errors: string[];
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });

function semaphore(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await work();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** The steps of a plan in the order the network delivers them. */
export function deliveredSteps(
  plan: ShipmentPlan,
  ids: LocationIds,
  seed: number,
  delivery?: DeliveryOptions,
): UploadStep[] {
  return deliveryOrder(uploadSteps(plan, ids), createRng(seed).fork(plan.serial), delivery);
}

const authOf = (call: CallDef) => (call.path.startsWith('/api/devices/') ? 'token' : 'session');

/** Sends the shipments; answers what each one did. */
export async function driveShipments(
  client: ApiClient,
  plans: readonly ShipmentPlan[],
  ids: LocationIds,
  options: DriveOptions = {},
): Promise<ShipmentOutcome[]> {
  const now = options.now ?? (() => Date.now() / 1000);
  const limit = semaphore(options.concurrency ?? 4);
  return Promise.all(
    plans.map(async (plan) => {
      const outcome: ShipmentOutcome = {
        plan,
        recordId: undefined,
        uploads: 0,
        repeats: 0,
        pointsSent: 0,
        pending: 0,
        errors: [],
      };
      const steps = deliveredSteps(plan, ids, options.seed ?? 0, options.delivery);
      const seen = new Set<UploadStep['body']>();
      for (const [i, step] of steps.entries()) {
        if (step.at > now()) {
          if (!options.live) {
            outcome.pending = steps.length - i;
            break;
          }
          while (step.at > now() && !options.signal?.aborted) {
            await sleep(Math.min(1000, (step.at - now()) * 1000), options.signal);
          }
          if (options.signal?.aborted) {
            outcome.pending = steps.length - i;
            break;
          }
        }
        let body = step.body;
        if (step.needsRecordId) {
          if (outcome.recordId === undefined) {
            outcome.errors.push(`${step.call.path}: no record id yet`);
            continue;
          }
          body = { ...body, record_id: outcome.recordId };
        }
        let result: StepResult;
        try {
          const reply = await limit(() =>
            client.request<{ record_id?: string }>(step.call.method, step.call.path, {
              body,
              auth: authOf(step.call),
            }),
          );
          if (reply?.record_id !== undefined) outcome.recordId = reply.record_id;
          outcome.uploads++;
          outcome.pointsSent += step.points;
          if (seen.has(step.body)) outcome.repeats++;
          seen.add(step.body);
          result = { ok: true, ...(reply?.record_id ? { recordId: reply.record_id } : {}) };
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          outcome.errors.push(message);
          result = { ok: false, error: message };
        }
        options.onStep?.(plan, step, result);
      }
      return outcome;
    }),
  );
}

export interface RecordReport {
  recordId: string;
  numberOfPoints: number;
  status: string;
  tripStatus: string;
  /** Not stopped. */
  active: boolean;
  alarms: { high: number; low: number; cumulative: number };
}

/** What the server made of a shipment's record: points, status, trip, alarms. */
export async function reportRecord(client: ApiClient, recordId: string): Promise<RecordReport> {
  const record = (await client.call(xt1Record, { query: { record_id: recordId } })) as {
    number_of_points?: number;
    status?: string;
    trip?: { trip_status?: string } | null;
    stop_time?: string | null;
  };
  const alarms = (await client.call(xt1Alarms, {
    query: { record_id: recordId, include_acknowledged: 'true', include_dismissed: 'true' },
  })) as { above_or_below?: string; kind?: string }[];
  return {
    recordId,
    numberOfPoints: record.number_of_points ?? 0,
    status: record.status ?? '?',
    tripStatus: record.trip?.trip_status ?? 'NOT_DEPARTED',
    active: record.stop_time == null,
    alarms: {
      high: alarms.filter((a) => a.kind !== 'cumulative' && a.above_or_below === 'ABOVE').length,
      low: alarms.filter((a) => a.kind !== 'cumulative' && a.above_or_below === 'BELOW').length,
      cumulative: alarms.filter((a) => a.kind === 'cumulative').length,
    },
  };
}
