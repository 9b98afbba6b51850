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

  registerCall(app, authUsersList, async ({ query, organizationId, requirePrincipal }) => {
    const serverAdmin = query.server_admin ?? false;
    // Every user of the server is no organization's list: a server administrator needs none for it.
    return service.list(serverAdmin ? null : organizationId(), requirePrincipal(), serverAdmin);
  });

  registerCall(app, authUsersRegister, async ({ request, body, requirePrincipal }) =>
    service.register(request, requirePrincipal(), body),
  );

  registerCall(app, authUserRoles, async ({ request, body, organizationId, requirePrincipal }) =>
    service.changeRole(request, organizationId(), requirePrincipal(), body),
  );

  registerCall(app, authUserSuspend, async ({ request, body, organizationId, requirePrincipal }) =>
    service.setSuspended(request, organizationId(), requirePrincipal(), body),
  );

  registerCall(app, authUserLock, async ({ request, body, requirePrincipal }) =>
    service.setLocked(request, requirePrincipal(), body),
  );

  registerCall(app, authRolePermissions, async ({ organizationId }) =>
    service.roles(organizationId()),
  );

  registerCall(app, authOrgsCreate, async ({ body, requirePrincipal }) =>
    service.createOrganization(requirePrincipal(), body.name),
  );

  registerCall(app, serverAdminOrgs, async () => service.organizationSummaries());

  registerCall(app, authInvitationsList, async ({ organizationId }) =>
    invitations.list(organizationId()),
  );

  registerCall(
    app,
    authInvitationRevoke,
    async ({ request, body, organizationId, requirePrincipal }) =>
      invitations.revoke(request, organizationId(), requirePrincipal(), body.invitation_id),
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
