import Box from '@mui/material/Box';
import Skeleton, { type SkeletonProps } from '@mui/material/Skeleton';

/** Placeholder while a page's data or the session loads: skeletons, not a spinner. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <Box role="status" aria-label={label} aria-busy="true">
      <Skeleton variant="text" width={220} height={44} />
      <Skeleton variant="rounded" height={96} sx={{ mt: 2 }} />
      <Skeleton variant="text" width="60%" sx={{ mt: 2 }} />
      <Skeleton variant="text" width="45%" />
    </Box>
  );
}

/**
 * One value still loading (a count, a temperature): a skeleton that assistive
 * technology reads as "Loading". It is an indeterminate progress bar, since a
 * plain span may not carry a label (axe: aria-prohibited-attr).
 */
export function ValueLoading(props: SkeletonProps) {
  return <Skeleton role="progressbar" aria-label="Loading" {...props} />;
}
