/** The organization administration pages (issue 5); each lives in `components/`. */
export { ApiKeysPage } from './components/api-keys-page';
export { AssignTagsPage } from './components/assign-tags-page';
export { ManageUsersPage } from './components/manage-users-page';
