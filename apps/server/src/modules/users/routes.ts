import {
  authInvitationAccept,
  authInvitationDecline,
  authInvitationRegister,
  authInvitationRevoke,
  authInvitationValidate,
  authInvitationsList,
  authOrgsCreate,
  authRolePermissions,
  authUserLock,
  authUserRoles,
  authUsersList,
  authUsersRegister,
  authUserSuspend,
  serverAdminOrgs,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createUsersService } from './service';

/** Manage Users, invitations and server administration calls (issues 5 and 34). */
export async function usersRoutes(app: FastifyInstance): Promise<void> {
  const service = createUsersService(app);
  const { invitations } = service;

  registerCall(app, authUsersList, async ({ query, requirePrincipal }) =>
    service.list(requirePrincipal(), query.server_admin ?? false),
  );

  registerCall(app, authUsersRegister, async ({ request, body, requirePrincipal }) =>
    service.register(request, requirePrincipal(), body),
  );

  registerCall(app, authUserRoles, async ({ request, body, requirePrincipal }) =>
    service.changeRole(request, requirePrincipal(), body),
  );

  registerCall(app, authUserSuspend, async ({ request, body, requirePrincipal }) =>
    service.setSuspended(request, requirePrincipal(), body),
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

  registerCall(app, authInvitationsList, async ({ requirePrincipal }) =>
    invitations.list(requirePrincipal()),
  );

  registerCall(app, authInvitationRevoke, async ({ request, body, requirePrincipal }) =>
    invitations.revoke(request, requirePrincipal(), body.invitation_id),
  );

  registerCall(app, authInvitationValidate, async ({ body }) => invitations.view(body));

  registerCall(app, authInvitationAccept, async ({ request, body, requirePrincipal }) =>
    invitations.accept(request, requirePrincipal(), body),
  );

  registerCall(app, authInvitationRegister, async ({ request, body }) =>
    invitations.registerAccount(request, body),
  );

  registerCall(app, authInvitationDecline, async ({ request, body }) =>
    invitations.decline(request, body),
  );
}
