import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';

/** /alldevices */
export function AllDevicesPage() {
  return (
    <Page title="All Devices">
      <EmptyState>The device list is not available yet.</EmptyState>
    </Page>
  );
}
