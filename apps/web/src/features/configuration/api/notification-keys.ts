/** Query keys of the /api/notifications/ calls, named after their paths. */
export const notificationKeys = {
  all: ['notifications'] as const,
  settings: ['notifications', 'settings'] as const,
  rules: ['notifications', 'rules'] as const,
  log: ['notifications', 'log'] as const,
};
