import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/** `Dashboard` -> `Dashboard · Coldtrace`. */
export function documentTitle(title: string): string {
  return `${title} · Coldtrace`;
}

/**
 * A page: its document title, its heading (h1) and its content. React 19 moves
 * the `<title>` into the document head.
 */
export function Page({
  title,
  heading,
  subtitle,
  actions,
  children,
}: {
  /** Document title and, unless `heading` is given, the heading. */
  title: string;
  heading?: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <title>{documentTitle(title)}</title>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{
          mb: 2.5,
          alignItems: { xs: 'flex-start', sm: 'center' },
          justifyContent: 'space-between',
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography id={headingId} variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {heading ?? title}
          </Typography>
          {subtitle ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {subtitle}
            </Typography>
          ) : null}
        </Box>
        {actions}
      </Stack>
      {children}
    </Box>
  );
}
