import {
  authPasswordChange,
  authPasswordReset,
  authPasswordResetConfirm,
  authPasswordResetValidate,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../../http/register-call';
import { DEVICE_COOKIE } from '../../../kernel/context';
import { nextDeviceCookie, setDeviceCookie } from '../auth/device-cookie';
import { presentUser } from '../auth/presenter';
import { createPasswordService } from './service';

/** Password reset and welcome links, and password change (issue 5). */
export async function passwordRoutes(app: FastifyInstance): Promise<void> {
  const service = createPasswordService(app);

  registerCall(app, authPasswordReset, async ({ body, request }) => {
    await service.requestReset(body.email, request.ip);
  });

  registerCall(app, authPasswordResetValidate, async ({ body }) => {
    await service.validateLink(body.uuid, body.token);
  });

  registerCall(app, authPasswordResetConfirm, async ({ body }) => {
    await service.confirmReset(body.uuid, body.token, body.new_password);
  });

  registerCall(app, authPasswordChange, async ({ body, request, reply, requirePrincipal }) => {
    const principal = requirePrincipal();
    const deviceCookie = request.cookies[DEVICE_COOKIE];
    const user = await service.changePassword(principal, body, { ip: request.ip, deviceCookie });
    // The device cookies were signed over the old password: this browser stays known.
    setDeviceCookie(request, reply, nextDeviceCookie(app.config.secretKey, deviceCookie, user));
    return presentUser(app.db, { ...principal, user });
  });
}
