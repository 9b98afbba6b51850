/** Query keys of the organization administration calls, named after their paths. */
export const organizationKeys = {
  users: ['auth', 'users'] as const,
  roles: ['auth', 'role-permissions'] as const,
  adminOrgs: ['auth', 'admin-orgs'] as const,
  apiKeys: ['keys', 'generate'] as const,
};
