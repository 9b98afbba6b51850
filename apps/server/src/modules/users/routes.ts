import {
  authOrgsCreate,
  authRolePermissions,
  authUserLock,
  authUserRoles,
  authUsersList,
  authUsersRegister,
  serverAdminOrgs,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createUsersService } from './service';

/** Manage Users and server administration calls (issue 5). */
export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const service = createUsersService(app);

  registerCall(app, authUsersList, async ({ query, requirePrincipal }) =>
    service.list(requirePrincipal(), query.server_admin ?? false),
  );

  registerCall(app, authUsersRegister, async ({ request, body, requirePrincipal }) =>
    service.register(request, requirePrincipal(), body),
  );

  registerCall(app, authUserRoles, async ({ request, body, requirePrincipal }) =>
    service.changeRole(request, requirePrincipal(), body),
  );

  registerCall(app, authUserLock, async ({ request, body, requirePrincipal }) =>
    service.setLocked(request, requirePrincipal(), body),
  );

  registerCall(app, authRolePermissions, async ({ requirePrincipal }) =>
    service.roles(requirePrincipal()),
  );

  registerCall(app, authOrgsCreate, async ({ body, requirePrincipal }) =>
    service.createOrganization(requirePrincipal(), body.name),
  );

  registerCall(app, serverAdminOrgs, async () => service.organizationSummaries());
}
