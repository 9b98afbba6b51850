/** Query keys of /api/data-display-rules/: per organization, so a switch never shows the previous one's rule. */
export const displayRulesKeys = {
  all: ['data-display-rules'] as const,
  organization: (organizationId: string | null | undefined) =>
    ['data-display-rules', organizationId ?? null] as const,
  roles: ['auth', 'role-permissions'] as const,
};
