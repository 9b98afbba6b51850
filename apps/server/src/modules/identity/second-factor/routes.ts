import {
  authSecondFactorConfirm,
  authSecondFactorDisable,
  authSecondFactorEnrol,
  authSecondFactorGet,
  authSecondFactorRecoveryCodes,
  authSecondFactorReset,
} from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerCall } from '../../../http/register-call';
import { DEVICE_COOKIE } from '../../../kernel/context';
import { createSecondFactorService } from './service';

/** The signed-in user's second factor (issue 37 item 7): enrol, confirm, recovery codes, disable. */
export async function secondFactorRoutes(app: FastifyInstance): Promise<void> {
  const service = createSecondFactorService(app);
  const client = (request: FastifyRequest) => ({
    ip: request.ip,
    deviceCookie: request.cookies[DEVICE_COOKIE],
  });

  registerCall(app, authSecondFactorGet, async ({ requirePrincipal }) =>
    service.status(requirePrincipal()),
  );
  registerCall(app, authSecondFactorEnrol, async ({ body, request, requirePrincipal }) =>
    service.start(requirePrincipal(), body.password, client(request)),
  );
  registerCall(app, authSecondFactorConfirm, async ({ body, requirePrincipal }) =>
    service.confirm(requirePrincipal(), body.code),
  );
  registerCall(app, authSecondFactorRecoveryCodes, async ({ body, request, requirePrincipal }) =>
    service.regenerate(requirePrincipal(), body, client(request)),
  );
  registerCall(app, authSecondFactorDisable, async ({ body, request, requirePrincipal }) =>
    service.disable(requirePrincipal(), body, client(request)),
  );
  registerCall(app, authSecondFactorReset, async ({ body, request, requirePrincipal }) =>
    service.resetFor(requirePrincipal(), body, client(request)),
  );
}
