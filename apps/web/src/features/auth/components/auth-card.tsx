import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { documentTitle } from '../../../components/page';

/** The centred card of the signed-out pages (login, forgot password, reset, welcome). */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper
      variant="outlined"
      sx={{ maxWidth: 440, mx: 'auto', mt: { xs: 1, sm: 6 }, p: { xs: 2.5, sm: 4 } }}
    >
      <title>{documentTitle(title)}</title>
      <Typography variant="h1" sx={{ mb: subtitle ? 0.5 : 2.5, overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      {subtitle ? (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {subtitle}
        </Typography>
      ) : null}
      {children}
    </Paper>
  );
}
