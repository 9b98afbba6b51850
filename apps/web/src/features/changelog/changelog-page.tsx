import { Page } from '../../components/page';
import { ChangelogText } from './components/changelog-text';

/** /changelog */
export function ChangelogPage() {
  return (
    <Page title="Changelog" subtitle="What changed in Coldtrace, newest first.">
      <ChangelogText />
    </Page>
  );
}
