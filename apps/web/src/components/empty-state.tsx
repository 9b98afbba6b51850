import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A calm, honest empty state: one line saying what is (not) here, and maybe what to do. */
export function EmptyState({
  icon,
  children,
  action,
}: {
  icon?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Stack sx={{ color: 'text.secondary', pt: '2px' }} aria-hidden>
          {icon ?? <InfoOutlined />}
        </Stack>
        <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
          <Typography color="text.secondary">{children}</Typography>
          {action}
        </Stack>
      </Stack>
    </Paper>
  );
}
