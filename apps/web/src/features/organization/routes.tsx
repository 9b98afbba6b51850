/** Pages of the organization feature, loaded lazily by the router. */
export { ApiKeysPage, AssignTagsPage, ManageUsersPage } from './admin-pages';
