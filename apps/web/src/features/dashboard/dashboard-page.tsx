import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { sessionOrganization } from '../../lib/session';
import { useCurrentUser } from '../session';

/** / : the dashboard. Statistics and the home list come with the records capability. */
export function DashboardPage() {
  const user = useCurrentUser();
  const name = user?.first_name?.trim() || user?.username;
  const organization = sessionOrganization(user);
  return (
    <Page
      title="Dashboard"
      subtitle={
        name
          ? `Welcome to Coldtrace, ${name}${organization ? ` (${organization.name})` : ''}.`
          : 'Welcome to Coldtrace.'
      }
    >
      <EmptyState>
        Record statistics and the list of latest records are not available yet.
      </EmptyState>
    </Page>
  );
}
