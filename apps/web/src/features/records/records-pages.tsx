import { useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';

/** /allrecords */
export function AllRecordsPage() {
  return (
    <Page title="All Records">
      <EmptyState>The record list is not available yet.</EmptyState>
    </Page>
  );
}

/** /recorddetails/:recordId */
export function RecordDetailPage() {
  const { recordId = '' } = useParams();
  return (
    <Page title={`Record ${recordId}`}>
      <EmptyState>Record details are not available yet.</EmptyState>
    </Page>
  );
}

/** /search?searchTerms=...&page=... */
export function SearchPage() {
  const [params] = useSearchParams();
  const terms = params.get('searchTerms')?.trim();
  return (
    <Page title="Search Results" subtitle={terms ? `Search terms: ${terms}` : undefined}>
      <EmptyState>Searching records is not available yet.</EmptyState>
    </Page>
  );
}
