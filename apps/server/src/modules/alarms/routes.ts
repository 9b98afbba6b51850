import { xt1AlarmAcknowledge, xt1AlarmDismiss } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createAlarmsService } from './service';

/** Acknowledge and dismiss alarms (docs/decisions/alarm-actions.md). */
export async function alarmsRoutes(app: FastifyInstance): Promise<void> {
  const service = createAlarmsService(app.db);

  registerCall(app, xt1AlarmAcknowledge, async ({ body, requirePrincipal }) =>
    service.acknowledge(requirePrincipal(), body),
  );

  registerCall(app, xt1AlarmDismiss, async ({ body, requirePrincipal }) =>
    service.dismiss(requirePrincipal(), body),
  );
}
