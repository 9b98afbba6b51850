/** Notifications: the top bar bell. */
export { NotificationsBell } from './components/notifications-bell';
