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
import type { OrganizationRequest } from '../../kernel/context';
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

  const ctx: ContextOf = (request, caller) => ({
    db: app.db,
    log: request.log,
    principal: caller.principal,
    organizationId: caller.organizationId,
    jobs: app.jobs,
    requestId: caller.requestId,
  });

  xt1Routes(app, ctx);
  rtRoutes(app, ctx);
  nanotagRoutes(app, ctx);
}

/** The request's ingest context: the app's database and jobs, the request's log, who and where. */
type ContextOf = (request: FastifyRequest, caller: OrganizationRequest) => service.IngestContext;

function xt1Routes(app: FastifyInstance, ctx: ContextOf): void {
  registerCall(app, xt1ScanUpload, async ({ request, body, organizationRequest }) =>
    service.xt1Upload(ctx(request, organizationRequest()), 'SCAN', body),
  );
  registerCall(app, xt1StartAction, async ({ request, body, organizationRequest }) =>
    service.xt1Upload(ctx(request, organizationRequest()), 'START', body),
  );
  registerCall(app, xt1StopAction, async ({ request, body, organizationRequest }) =>
    service.xt1Upload(ctx(request, organizationRequest()), 'STOP', body),
  );
  registerCall(app, xt1ConfigureAction, async ({ request, body, organizationRequest }) =>
    service.xt1Upload(ctx(request, organizationRequest()), 'CONFIGURE', body),
  );
  registerCall(app, xt1CreateShipmentAction, async ({ request, body, organizationRequest }) =>
    service.xt1Upload(ctx(request, organizationRequest()), 'CREATE_SHIPMENT', body),
  );
  // A person's regulated change: the signature sent with it is verified first (throttled).
  const signed = async (
    request: FastifyRequest,
    caller: OrganizationRequest,
    body: { password?: string | undefined; meaning?: TSignatureMeaning | undefined },
    clientType: string | undefined,
  ): Promise<service.IngestContext> => ({
    ...ctx(request, caller),
    signature: await verifyChangeSignature(
      app,
      request,
      caller.principal,
      body,
      clientType ?? 'WEB',
    ),
  });
  registerCall(app, xt1UpdateShipmentAction, async ({ request, body, organizationRequest }) =>
    service.xt1UpdateShipment(
      await signed(request, organizationRequest(), body, body.mobile_device_type),
      body,
    ),
  );
  registerCall(app, xt1TripEdit, async ({ request, body, organizationRequest }) =>
    service.xt1TripEdit(await signed(request, organizationRequest(), body, undefined), body),
  );
}

function rtRoutes(app: FastifyInstance, ctx: ContextOf): void {
  registerCall(app, rtConfigureAction, async ({ request, body, organizationRequest }) =>
    service.rtConfigure(ctx(request, organizationRequest()), body),
  );
  registerCall(app, rtStartAction, async ({ request, body, organizationRequest }) =>
    service.rtStart(ctx(request, organizationRequest()), body),
  );
  registerCall(app, rtStopAction, async ({ request, body, organizationRequest }) =>
    service.rtStop(ctx(request, organizationRequest()), body),
  );
  registerCall(app, rtPackets, async ({ request, body, organizationRequest }) =>
    service.rtPacket(ctx(request, organizationRequest()), body),
  );
  registerCall(app, rtConfigureRequest, async ({ request, body, organizationRequest }) =>
    service.rtRequest(ctx(request, organizationRequest()), 'configure', body),
  );
  registerCall(app, rtStartRequest, async ({ request, body, organizationRequest }) =>
    service.rtRequest(ctx(request, organizationRequest()), 'start', body),
  );
  registerCall(app, rtStopRequest, async ({ request, body, organizationRequest }) =>
    service.rtRequest(ctx(request, organizationRequest()), 'stop', body),
  );
}

function nanotagRoutes(app: FastifyInstance, ctx: ContextOf): void {
  registerCall(app, nanotagGeneralizedData, async ({ request, body, organizationRequest }) =>
    service.nanotagSettings(ctx(request, organizationRequest()), body),
  );
  registerCall(app, nanotagConfigureAction, async ({ request, body, organizationRequest }) =>
    service.nanotagConfigure(ctx(request, organizationRequest()), body),
  );
  registerCall(app, nanotagFirstSampleAction, async ({ request, body, organizationRequest }) =>
    service.nanotagFirstSample(ctx(request, organizationRequest()), body),
  );
  registerCall(app, nanotagHealthAction, async ({ request, body, organizationRequest }) =>
    service.nanotagHealth(ctx(request, organizationRequest()), body),
  );
  registerCall(app, nanotagPackets, async ({ request, body, organizationRequest }) =>
    service.nanotagPacket(ctx(request, organizationRequest()), body),
  );
  registerCall(app, nanotagStatusAction, async ({ request, body, organizationRequest }) =>
    service.nanotagStatus(ctx(request, organizationRequest()), body),
  );
  registerCall(app, nanotagTransmitInterval, async ({ request, body, organizationRequest }) =>
    service.nanotagTransmitInterval(ctx(request, organizationRequest()), body),
  );
}
