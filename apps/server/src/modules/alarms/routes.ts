import { xt1AlarmAcknowledge, xt1AlarmDismiss } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createAlarmsService, type RecomputeRecord } from './service';

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

  registerCall(app, xt1AlarmAcknowledge, async ({ body, organizationRequest }) =>
    service.acknowledge(organizationRequest(), body),
  );

  registerCall(app, xt1AlarmDismiss, async ({ body, organizationRequest }) =>
    service.dismiss(organizationRequest(), body),
  );
}
