/** Query keys of the bell: the session user's notifications (first page of 100). */
export const notificationsKeys = {
  all: ['xt1', 'notifications'] as const,
};
