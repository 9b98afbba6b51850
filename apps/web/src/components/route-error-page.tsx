import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { documentTitle } from './page';

/** What the error page says: the status and text of a route error, or the error's message. */
export function describeRouteError(error: unknown): { detail: string; isChunkError: boolean } {
  if (isRouteErrorResponse(error)) {
    return { detail: `${error.status} ${error.statusText}`.trim(), isChunkError: false };
  }
  if (error instanceof Error) {
    return { detail: error.message || error.name, isChunkError: error.name === 'ChunkLoadError' };
  }
  return { detail: typeof error === 'string' ? error : 'Unknown error', isChunkError: false };
}

/**
 * Spec section 8, "Unmatched router state": the generic heading 'Unexpected
 * Application Error!' with the status and text or message. Also shows a script
 * chunk that failed to load (ChunkLoadError).
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const { detail, isChunkError } = describeRouteError(error);
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <Box sx={{ p: { xs: 2, sm: 4 }, display: 'flex', justifyContent: 'center' }}>
      <title>{documentTitle('Error')}</title>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 }, maxWidth: 640, width: '100%' }}>
        <Typography variant="h1" sx={{ color: 'error.main' }}>
          Unexpected Application Error!
        </Typography>
        <Typography variant="h3" component="h2" sx={{ mt: 1.5, overflowWrap: 'anywhere' }}>
          {detail}
        </Typography>
        {isChunkError ? (
          <Typography color="text.secondary" sx={{ mt: 1.5 }}>
            A part of the application could not be loaded. Check the connection, then reload the
            page.
          </Typography>
        ) : null}
        <Stack direction="row" spacing={1.5} sx={{ mt: 3 }}>
          <Button variant="contained" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
          <Button variant="outlined" href="/">
            Go to the dashboard
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}

export default RouteErrorPage;
