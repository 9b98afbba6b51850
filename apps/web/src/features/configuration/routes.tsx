import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';

/** /configuration: products, carriers and travel locations. */
export function ConfigurationPage() {
  return (
    <Page title="Configuration">
      <EmptyState>
        Managing products, carriers and travel locations is not available yet.
      </EmptyState>
    </Page>
  );
}
