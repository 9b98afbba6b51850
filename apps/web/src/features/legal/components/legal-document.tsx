import type { UseQueryResult } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { errorMessage } from '../../../components/error-handler';
import { TextDocument } from '../../../components/text-document';
import { isApiError } from '../../../lib/api-error';

/** The text of a legal document: loading, not published (404), failed with a retry, or shown. */
export function LegalDocument({
  query,
  what,
  anchors,
}: {
  query: UseQueryResult<{ content: string }>;
  /** "terms of use", "privacy policy". */
  what: string;
  anchors?: string[];
}) {
  const { hash } = useLocation();
  const content = query.data?.content;

  // The text arrives after the page: scroll to the anchor (#warranty) once it is there.
  useEffect(() => {
    if (!content || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [content, hash]);

  if (query.isPending) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }} role="status" aria-label={`Loading the ${what}`}>
        <Skeleton width="40%" />
        <Skeleton />
        <Skeleton />
        <Skeleton width="80%" />
      </Paper>
    );
  }
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) {
      return <EmptyState>No {what} published yet.</EmptyState>;
    }
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            Retry
          </Button>
        }
      >
        Loading the {what} failed: {errorMessage(query.error)}
      </Alert>
    );
  }
  if (!content?.trim()) return <EmptyState>The {what} text is empty.</EmptyState>;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <TextDocument source={content} anchors={anchors} />
    </Paper>
  );
}
