import { CHANGELOG_MAX_HEIGHT } from '@coldtrace/contract';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import { errorMessage } from '../../../components/error-handler';
import { TextDocument } from '../../../components/text-document';
import { useChangelog } from '../api/get-changelog';

/** The changelog in a scrollable box of at most 350 px (spec sections 2 and 9). */
export function ChangelogText() {
  const query = useChangelog();
  if (query.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            Retry
          </Button>
        }
      >
        Loading the changelog failed: {errorMessage(query.error)}
      </Alert>
    );
  }
  return (
    <Paper
      variant="outlined"
      data-testid="changelog-text"
      role="region"
      aria-label="Changelog text"
      aria-busy={query.isPending}
      // Scrollable: reachable with the keyboard.
      tabIndex={0}
      sx={{
        maxHeight: CHANGELOG_MAX_HEIGHT,
        overflowY: 'auto',
        p: { xs: 2, sm: 2.5 },
        boxSizing: 'border-box',
      }}
    >
      {query.isPending ? (
        <>
          <Skeleton width="30%" />
          <Skeleton />
          <Skeleton width="85%" />
        </>
      ) : (
        <TextDocument source={query.data} />
      )}
    </Paper>
  );
}
