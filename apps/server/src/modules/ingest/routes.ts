import {
  INGEST_BODY_LIMIT_BYTES,
  nanotagConfigureAction,
  nanotagFirstSampleAction,
  nanotagGeneralizedData,
  nanotagHealthAction,
  nanotagPackets,
  nanotagStatusAction,
  nanotagTransmitInterval,
  rtConfigureAction,
  rtConfigureRequest,
  rtPackets,
  rtStartAction,
  rtStartRequest,
  rtStopAction,
  rtStopRequest,
  xt1ConfigureAction,
  xt1CreateShipmentAction,
  xt1ScanUpload,
  xt1StartAction,
  xt1StopAction,
  xt1TripEdit,
  xt1UpdateShipmentAction,
} from '@coldtrace/contract';
import type { TSignatureMeaning } from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerCall } from '../../http/register-call';
import type { Principal } from '../../kernel/principal';
import { verifyChangeSignature } from '../signatures';
import * as service from './service';

/**
 * The device upload calls (spec section 7: xt1 uploads and actions, rt and
 * nanotag). Thin: the contract validated the body, the guard checked the
 * authentication kind and the permission; the service does the rest. These
 * routes take bodies up to INGEST_BODY_LIMIT_BYTES (100,000 points as JSON).
 */
export async function ingestRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    route.bodyLimit = INGEST_BODY_LIMIT_BYTES;
  });

  const ctx: ContextOf = (request, principal) => ({
    db: app.db,
    log: request.log,
    principal,
    jobs: app.jobs,
    requestId: request.id,
  });

  xt1Routes(app, ctx);
  rtRoutes(app, ctx);
  nanotagRoutes(app, ctx);
}

/** The request's ingest context: the app's database and jobs, the request's log and id. */
type ContextOf = (request: FastifyRequest, principal: Principal) => service.IngestContext;

function xt1Routes(app: FastifyInstance, ctx: ContextOf): void {
  registerCall(app, xt1ScanUpload, async ({ request, body, requirePrincipal }) =>
    service.xt1Upload(ctx(request, requirePrincipal()), 'SCAN', body),
  );
  registerCall(app, xt1StartAction, async ({ request, body, requirePrincipal }) =>
    service.xt1Upload(ctx(request, requirePrincipal()), 'START', body),
  );
  registerCall(app, xt1StopAction, async ({ request, body, requirePrincipal }) =>
    service.xt1Upload(ctx(request, requirePrincipal()), 'STOP', body),
  );
  registerCall(app, xt1ConfigureAction, async ({ request, body, requirePrincipal }) =>
    service.xt1Upload(ctx(request, requirePrincipal()), 'CONFIGURE', body),
  );
  registerCall(app, xt1CreateShipmentAction, async ({ request, body, requirePrincipal }) =>
    service.xt1Upload(ctx(request, requirePrincipal()), 'CREATE_SHIPMENT', body),
  );
  // A person's regulated change: the signature sent with it is verified first (throttled).
  const signed = async (
    request: FastifyRequest,
    principal: Principal,
    body: { password?: string | undefined; meaning?: TSignatureMeaning | undefined },
    clientType: string | undefined,
  ): Promise<service.IngestContext> => ({
    ...ctx(request, principal),
    signature: await verifyChangeSignature(app, request, principal, body, clientType ?? 'WEB'),
  });
  registerCall(app, xt1UpdateShipmentAction, async ({ request, body, requirePrincipal }) =>
    service.xt1UpdateShipment(
      await signed(request, requirePrincipal(), body, body.mobile_device_type),
      body,
    ),
  );
  registerCall(app, xt1TripEdit, async ({ request, body, requirePrincipal }) =>
    service.xt1TripEdit(await signed(request, requirePrincipal(), body, undefined), body),
  );
}

function rtRoutes(app: FastifyInstance, ctx: ContextOf): void {
  registerCall(app, rtConfigureAction, async ({ request, body, requirePrincipal }) =>
    service.rtConfigure(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, rtStartAction, async ({ request, body, requirePrincipal }) =>
    service.rtStart(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, rtStopAction, async ({ request, body, requirePrincipal }) =>
    service.rtStop(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, rtPackets, async ({ request, body, requirePrincipal }) =>
    service.rtPacket(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, rtConfigureRequest, async ({ request, body, requirePrincipal }) =>
    service.rtRequest(ctx(request, requirePrincipal()), 'configure', body),
  );
  registerCall(app, rtStartRequest, async ({ request, body, requirePrincipal }) =>
    service.rtRequest(ctx(request, requirePrincipal()), 'start', body),
  );
  registerCall(app, rtStopRequest, async ({ request, body, requirePrincipal }) =>
    service.rtRequest(ctx(request, requirePrincipal()), 'stop', body),
  );
}

function nanotagRoutes(app: FastifyInstance, ctx: ContextOf): void {
  registerCall(app, nanotagGeneralizedData, async ({ request, body, requirePrincipal }) =>
    service.nanotagSettings(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, nanotagConfigureAction, async ({ request, body, requirePrincipal }) =>
    service.nanotagConfigure(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, nanotagFirstSampleAction, async ({ request, body, requirePrincipal }) =>
    service.nanotagFirstSample(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, nanotagHealthAction, async ({ request, body, requirePrincipal }) =>
    service.nanotagHealth(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, nanotagPackets, async ({ request, body, requirePrincipal }) =>
    service.nanotagPacket(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, nanotagStatusAction, async ({ request, body, requirePrincipal }) =>
    service.nanotagStatus(ctx(request, requirePrincipal()), body),
  );
  registerCall(app, nanotagTransmitInterval, async ({ request, body, requirePrincipal }) =>
    service.nanotagTransmitInterval(ctx(request, requirePrincipal()), body),
  );
}
