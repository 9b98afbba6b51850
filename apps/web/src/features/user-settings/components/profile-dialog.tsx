import type { TUser } from '@coldtrace/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

const NO_INFORMATION = 'No information on file';

/** Profile dialog (spec section 2): first name, last name and e-mail address. */
export function ProfileDialog({ user, onClose }: { user: TUser; onClose: () => void }) {
  const titleId = useId();
  const rows: [string, string | undefined][] = [
    ['First name', user.first_name],
    ['Last name', user.last_name],
    ['Email', user.email],
  ];
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Profile</DialogTitle>
      <DialogContent>
        <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2 }}>
          {rows.map(([label, value]) => {
            const given = value?.trim();
            return (
              <div key={label}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {label}
                </Typography>
                <Typography
                  component="dd"
                  sx={{
                    m: 0,
                    overflowWrap: 'anywhere',
                    ...(given ? {} : { color: 'text.secondary', fontStyle: 'italic' }),
                  }}
                >
                  {given || NO_INFORMATION}
                </Typography>
              </div>
            );
          })}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
