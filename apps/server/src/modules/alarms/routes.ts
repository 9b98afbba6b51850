import { xt1AlarmAcknowledge, xt1AlarmDismiss } from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerCall } from '../../http/register-call';
import { DEVICE_COOKIE } from '../identity';
import type { Principal } from '../../kernel/principal';
import { createAlarmsService, type ActionContext, type RecomputeRecord } from './service';

/** What app.ts hands the module when it wires the modules. */
export interface AlarmsRoutesOptions {
  /** Ingest's `recomputeRecord`, run on each record after a dismissal. */
  recomputeRecord: RecomputeRecord;
}

/** Acknowledge and dismiss alarms (docs/decisions/alarm-actions.md). */
export async function alarmsRoutes(
  app: FastifyInstance,
  options: AlarmsRoutesOptions,
): Promise<void> {
  const service = createAlarmsService(app, options.recomputeRecord);
  const ctx = (
    request: FastifyRequest,
    organizationId: string,
    principal: Principal,
  ): ActionContext => ({
    organizationId,
    principal,
    requestId: request.id,
    clientIp: request.ip,
    deviceCookie: request.cookies[DEVICE_COOKIE],
  });

  registerCall(
    app,
    xt1AlarmAcknowledge,
    async ({ body, request, organizationId, requirePrincipal }) =>
      service.acknowledge(ctx(request, organizationId(), requirePrincipal()), body),
  );

  registerCall(app, xt1AlarmDismiss, async ({ body, request, organizationId, requirePrincipal }) =>
    service.dismiss(ctx(request, organizationId(), requirePrincipal()), body),
  );
}
