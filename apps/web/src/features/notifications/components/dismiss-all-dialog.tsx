import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { dismissAllQuestion, dismissAllText } from '../bell-text';

/**
 * 'Dismiss All' asks first (issue 14): how many notifications leave the
 * user's bell, and that the alarms themselves stay on their records. The
 * confirm button is red like an alarm's Dismiss: white on the theme's warning
 * amber was 3.0:1, below WCAG AA (issue 35).
 */
export function DismissAllDialog({
  open,
  count,
  total,
  onCancel,
  onConfirm,
  onExited,
}: {
  open: boolean;
  /** The notifications listed (the ones dismissed). */
  count: number;
  /** All of the user's notifications (more than listed when over a page). */
  total: number;
  onCancel: () => void;
  onConfirm: () => void;
  /** Called once the dialog has faded out (focus can then move). */
  onExited?: () => void;
}) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
      slotProps={{ transition: { onExited } }}
    >
      <DialogTitle id={titleId}>{dismissAllQuestion(count)}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{dismissAllText(count, total)}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          Cancel
        </Button>
        <Button onClick={onConfirm} color="error" variant="contained">
          Dismiss {count}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
