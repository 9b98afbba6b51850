import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';

/** /organization/admin */
export function ManageUsersPage() {
  return (
    <Page title="Manage Users">
      <EmptyState>Managing the users of this organization is not available yet.</EmptyState>
    </Page>
  );
}

/** /organization/apikeys */
export function ApiKeysPage() {
  return (
    <Page title="API Keys">
      <EmptyState>Generating and revoking API keys is not available yet.</EmptyState>
    </Page>
  );
}

/** /organization/assign-tags */
export function AssignTagsPage() {
  return (
    <Page title="Assign Tags">
      <EmptyState>Assigning tags to an organization is not available yet.</EmptyState>
    </Page>
  );
}
