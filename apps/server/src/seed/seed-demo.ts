import {
  BUILT_IN_ROLES,
  ZCarrierDefinitionForm,
  ZGeoFenceSettingsUpdate,
  ZProductDefinitionCreate,
  ZTravelLocationCreate,
  type CallDef,
} from '@coldtrace/contract';
import { and, eq, like, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  ALL_CARRIERS,
  DEMO_GEO_FENCE,
  PLACES,
  PRODUCTS,
  createRng,
  deliveryOrder,
  planFleet,
  productDefinitionBody,
  travelLocationBody,
  uploadSteps,
  type LocationIds,
  type PlaceKey,
  type ShipmentPlan,
} from '../../../../tools/simulator/src/index';
import type { Principal } from '../modules/identity';
import { createConfigurationService } from '../modules/configuration/plugin';
import * as ingest from '../modules/ingest';
import { notifyAlarmsRaised } from '../modules/notifications';
import type { Database } from '../db/client';
import type { UserRow } from '../db/schema';
import { alarms, tags } from '../db/schema-shipments';

/**
 * Demo records of the first start: the "Demo Organization" gets the demo
 * configuration (travel locations, products, carriers, a geo-fence) and a few
 * dozen shipments made by the simulator's generator (`tools/simulator`), the
 * same code `npm run simulate` sends over HTTP. Here the uploads go through
 * the ingest service in-process (the server is not listening yet), exactly as
 * the routes call it: the body is validated by the call's contract schema,
 * then handed to the service function of that route, as the administrator
 * with a device token would. So the records, scans, alarms, trips and
 * summaries are what real uploads would have produced.
 *
 * Idempotent: nothing happens when demo tags exist already.
 */

/** Demo shipments of the first start: 12 of each tag family, profiles and states in turn. */
export const DEMO_RECORD_COUNT = 36;
export const DEMO_SEED = 20_240_601;
export const DEMO_SERIAL_PREFIX = 'DEMO';

export interface DemoRecordsLogger {
  info(msg: string): void;
  warn?(msg: string): void;
}

export interface DemoRecordsOptions {
  count?: number;
  /** "Now" of the demo (default: the current time); shipments are back-dated from it. */
  now?: Date;
  /**
   * A pool to upload through, several shipments at a time (the seed's own
   * connection holds the start-up lock and serves one query at a time).
   */
  pool?: Database;
  /** Shipments uploaded at once through `pool` (default 4). */
  concurrency?: number;
}

export interface DemoRecordsResult {
  /** Shipments uploaded (0 when the demo data was there already). */
  shipments: number;
  uploads: number;
  failed: number;
}

type Handler = (ctx: ingest.IngestContext, body: never) => Promise<unknown>;

/** What each upload route calls (modules/ingest/routes.ts), by the call's operationId. */
const HANDLERS: Record<string, Handler> = {
  xt1ScanUpload: (ctx, body) => ingest.xt1Upload(ctx, 'SCAN', body),
  xt1StartAction: (ctx, body) => ingest.xt1Upload(ctx, 'START', body),
  xt1StopAction: (ctx, body) => ingest.xt1Upload(ctx, 'STOP', body),
  xt1ConfigureAction: (ctx, body) => ingest.xt1Upload(ctx, 'CONFIGURE', body),
  xt1CreateShipmentAction: (ctx, body) => ingest.xt1Upload(ctx, 'CREATE_SHIPMENT', body),
  xt1UpdateShipmentAction: (ctx, body) => ingest.xt1UpdateShipment(ctx, body),
  xt1TripEdit: (ctx, body) => ingest.xt1TripEdit(ctx, body),
  rtConfigureAction: (ctx, body) => ingest.rtConfigure(ctx, body),
  rtStartAction: (ctx, body) => ingest.rtStart(ctx, body),
  rtStopAction: (ctx, body) => ingest.rtStop(ctx, body),
  rtPackets: (ctx, body) => ingest.rtPacket(ctx, body),
  nanotagGeneralizedData: (ctx, body) => ingest.nanotagSettings(ctx, body),
  nanotagConfigureAction: (ctx, body) => ingest.nanotagConfigure(ctx, body),
  nanotagFirstSampleAction: (ctx, body) => ingest.nanotagFirstSample(ctx, body),
  nanotagHealthAction: (ctx, body) => ingest.nanotagHealth(ctx, body),
  nanotagPackets: (ctx, body) => ingest.nanotagPacket(ctx, body),
  nanotagStatusAction: (ctx, body) => ingest.nanotagStatus(ctx, body),
  nanotagTransmitInterval: (ctx, body) => ingest.nanotagTransmitInterval(ctx, body),
};

/** An upload as its route would handle it: the contract's validation, then the service. */
async function upload(ctx: ingest.IngestContext, call: CallDef, body: unknown): Promise<unknown> {
  const handler = HANDLERS[call.operationId];
  if (!handler || !call.body) throw new Error(`no in-process handler for ${call.operationId}`);
  const parsed = (call.body as z.ZodType).parse(body) as never;
  return handler(ctx, parsed);
}

/** The demo configuration the organization lacks (matched by name); answers the location ids. */
async function ensureConfiguration(
  db: Database,
  organizationId: string,
  principal: Principal,
): Promise<LocationIds> {
  const config = createConfigurationService({ db, jobs: null });
  const locations = await config.listLocations(organizationId);
  const ids: Partial<Record<PlaceKey, string>> = {};
  for (const place of PLACES) {
    let found = locations.find((l) => l.name === place.name);
    found ??= await config.createLocation(
      organizationId,
      principal,
      ZTravelLocationCreate.parse(travelLocationBody(place)),
    );
    if (found.id !== undefined) ids[place.key] = found.id;
  }
  const products = await config.listProducts(organizationId);
  for (const p of PRODUCTS) {
    if (products.some((d) => d.product_name === p.name)) continue;
    await config.createProduct(
      organizationId,
      principal,
      ZProductDefinitionCreate.parse(productDefinitionBody(p)),
    );
  }
  const carriers = await config.listCarriers(organizationId);
  for (const name of ALL_CARRIERS) {
    if (carriers.some((c) => c.name?.toLowerCase() === name.toLowerCase())) continue;
    await config.createCarrier(organizationId, principal, ZCarrierDefinitionForm.parse({ name }));
  }
  await config.updateOrgSettings(
    organizationId,
    principal,
    ZGeoFenceSettingsUpdate.parse(DEMO_GEO_FENCE),
    {
      requestId: 'seed',
      reason: 'Demo configuration',
      signature: null,
    },
  );
  return ids;
}

/** Sends one shipment's uploads (those that have happened by now) in delivery order. */
async function sendShipment(
  ctx: ingest.IngestContext,
  plan: ShipmentPlan,
  ids: LocationIds,
  now: number,
): Promise<number> {
  const steps = deliveryOrder(uploadSteps(plan, ids), createRng(DEMO_SEED).fork(plan.serial));
  let recordId: string | undefined;
  let sent = 0;
  for (const step of steps) {
    if (step.at > now) break;
    let body = step.body;
    if (step.needsRecordId) {
      if (recordId === undefined) continue;
      body = { ...body, record_id: recordId };
    }
    const reply = (await upload(ctx, step.call, body)) as { record_id?: string } | undefined;
    if (reply?.record_id !== undefined) recordId = reply.record_id;
    sent++;
  }
  return sent;
}

/**
 * Fill the organization with demo shipments uploaded as `admin` (who must be
 * a member of it). Does nothing when the organization has demo tags already.
 */
export async function seedDemoRecords(
  db: Database,
  organizationId: string,
  admin: UserRow,
  log: DemoRecordsLogger,
  options: DemoRecordsOptions = {},
): Promise<DemoRecordsResult> {
  const [existing] = await db
    .select({ id: tags.id })
    .from(tags)
    .where(
      and(
        eq(tags.organizationId, organizationId),
        like(tags.serialNumber, `${DEMO_SERIAL_PREFIX}-%`),
      ),
    )
    .limit(1);
  if (existing) return { shipments: 0, uploads: 0, failed: 0 };

  const principal: Principal = {
    kind: 'token',
    user: admin,
    organizationId,
    permissions: [...(BUILT_IN_ROLES.Administrator ?? [])],
    sessionId: null,
  };
  const ids = await ensureConfiguration(db, organizationId, principal);
  const ctx: ingest.IngestContext = {
    db: options.pool ?? db,
    principal,
    organizationId,
    log: { warn: (_obj, msg) => (log.warn ?? log.info)(`demo records: ${msg}`) },
    // The demo records are history: their alarms notify nobody.
    jobs: null,
    // The demo's dispatcher signs the trip times it enters (a change that closes an alarm is signed).
    signature: {
      printedName: 'Demo dispatcher',
      meaning: 'APPROVED',
      clientType: 'WEB',
      secondFactor: null,
    },
  };
  const now = (options.now ?? new Date()).getTime() / 1000;
  const plans = planFleet(
    { seed: DEMO_SEED, now, serialPrefix: DEMO_SERIAL_PREFIX },
    options.count ?? DEMO_RECORD_COUNT,
  );
  const result: DemoRecordsResult = { shipments: 0, uploads: 0, failed: 0 };
  // Shipments are independent (one tag each): several at a time keep Node and PostgreSQL busy.
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const plan = plans[next++]!;
      try {
        const sent = await sendShipment(ctx, plan, ids, now);
        result.uploads += sent;
        result.shipments++;
      } catch (err) {
        // A demo shipment that fails must not keep the product from starting; say so.
        result.failed++;
        const reason = err instanceof Error ? err.message : String(err);
        (log.warn ?? log.info)(`demo shipment ${plan.serial} failed: ${reason}`);
      }
    }
  };
  const workers = options.pool ? Math.max(1, options.concurrency ?? 4) : 1;
  await Promise.all(Array.from({ length: workers }, worker));
  // The bell shows the open demo alarms (no e-mails: those are for alarms as they happen).
  const open = await db
    .select({ recordId: alarms.recordId, ids: sql<number[]>`array_agg(${alarms.id})` })
    .from(alarms)
    .where(
      and(
        eq(alarms.organizationId, organizationId),
        eq(alarms.acknowledged, false),
        eq(alarms.dismissed, false),
        eq(alarms.state, 'OPEN'),
      ),
    )
    .groupBy(alarms.recordId);
  for (const { recordId, ids } of open) {
    await notifyAlarmsRaised(db, { organizationId, recordId, alarmIds: ids.map(Number) });
  }
  return result;
}
