import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';

/** /serveradmin */
export function ServerAdminPage() {
  return (
    <Page title="Server Administration">
      <EmptyState>Server administration is not available yet.</EmptyState>
    </Page>
  );
}
