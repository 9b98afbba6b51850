import type { QueryClient } from '@tanstack/react-query';

/** Query keys of the organization administration calls, named after their paths. */
export const organizationKeys = {
  users: ['auth', 'users'] as const,
  invitations: ['auth', 'invitations'] as const,
  roles: ['auth', 'role-permissions'] as const,
  adminOrgs: ['auth', 'admin-orgs'] as const,
  apiKeys: ['keys', 'generate'] as const,
};

/**
 * After any change to who belongs (register, revoke, suspend, role change): both
 * lists of Manage Users, members and pending invitations, load again.
 */
export function refreshMemberLists(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: organizationKeys.users }),
    queryClient.invalidateQueries({ queryKey: organizationKeys.invitations }),
  ]);
}
