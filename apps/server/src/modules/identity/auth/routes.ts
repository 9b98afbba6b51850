import {
  authAdminOrgs,
  authCsrf,
  authLogin,
  authLogout,
  authOrgs,
  authPublicLogin,
  authSessionGet,
  authSessionSwitch,
  authUserOrgSettings,
  authUserSettings,
  CSRF_COOKIE,
  SESSION_COOKIE,
} from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerCall } from '../../../http/register-call';
import {
  clearSessionCookie,
  isTokenShaped,
  newToken,
  sessionIdOf,
  setCsrfCookie,
  setSessionCookie,
} from './cookies';
import { DEVICE_COOKIE } from '../../../kernel/context';
import { setDeviceCookie } from './device-cookie';
import { presentOrgSettings, presentUser } from './presenter';
import { createAuthService, type ClientInfo } from './service';

/** The calls of spec section 7, "Authentication and account", served by the foundation. */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const service = createAuthService({ db: app.db, config: app.config, passwords: app.passwords });

  const clientOf = (request: FastifyRequest): ClientInfo => {
    const token = request.cookies[SESSION_COOKIE];
    return {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      previousSessionId: isTokenShaped(token) ? sessionIdOf(token) : undefined,
      deviceCookie: request.cookies[DEVICE_COOKIE],
    };
  };

  registerCall(app, authCsrf, async ({ request, reply }) => {
    const existing = request.cookies[CSRF_COOKIE];
    const csrftoken = isTokenShaped(existing) ? existing : newToken();
    setCsrfCookie(request, reply, csrftoken);
    return { csrftoken };
  });

  registerCall(app, authSessionGet, async ({ requirePrincipal }) =>
    presentUser(app.db, requirePrincipal()),
  );

  registerCall(app, authSessionSwitch, async ({ body, requirePrincipal }) =>
    presentUser(app.db, await service.switchOrganization(requirePrincipal(), body.id)),
  );

  registerCall(app, authLogin, async ({ body, request, reply }) => {
    const started = await service.login(
      {
        login: body.email_or_username,
        password: body.password,
        secondFactorCode: body.second_factor_code,
      },
      clientOf(request),
    );
    setSessionCookie(request, reply, started.token, started.expiresAt);
    setDeviceCookie(request, reply, started.deviceCookie);
    return presentUser(app.db, started.principal);
  });

  registerCall(app, authPublicLogin, async ({ request, reply }) => {
    const started = await service.publicLogin(clientOf(request));
    setSessionCookie(request, reply, started.token, started.expiresAt);
    return presentUser(app.db, started.principal);
  });

  registerCall(app, authLogout, async ({ request, reply }) => {
    await service.logout(clientOf(request).previousSessionId);
    clearSessionCookie(request, reply);
  });

  registerCall(app, authOrgs, async ({ requirePrincipal }) =>
    service.organizations(requirePrincipal()),
  );

  registerCall(app, authAdminOrgs, async ({ requirePrincipal }) =>
    service.adminOrganizations(requirePrincipal()),
  );

  registerCall(app, authUserSettings, async ({ body, requirePrincipal }) =>
    service.updateSettings(requirePrincipal(), body),
  );

  registerCall(app, authUserOrgSettings, async ({ body, organizationId, requirePrincipal }) =>
    presentOrgSettings(await service.updateOrgSettings(organizationId(), requirePrincipal(), body)),
  );
}
