/** Notifications: the top bar bell. */
export { NotificationsBell } from './components/notifications-bell';
export { notificationsKeys } from './api/query-keys';
