import { ALARM_COMMENT_MAX_LENGTH, type TExcursionAlarm } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../components/error-handler';
import { useAcknowledgeAlarms } from '../api/acknowledge-alarms';
import { useDismissAlarms } from '../api/dismiss-alarms';
import { alarmTitle } from '../display';

function usePhone() {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
}

function describe(alarm: TExcursionAlarm, timeZone: string): string {
  return `${alarmTitle(alarm)} from ${formatDateTime(alarm.start_time, timeZone)}`;
}

/**
 * Acknowledge one or several alarms with a comment (required: the button
 * stays disabled until the comment holds more than spaces). Sent with client
 * type WEB; the list shows the acknowledgement when the reply arrives.
 */
export function AcknowledgeDialog({
  recordId,
  alarms,
  timeZone,
  onClose,
  onAcknowledged,
}: {
  recordId: string;
  alarms: readonly TExcursionAlarm[];
  timeZone: string;
  onClose: () => void;
  onAcknowledged?: () => void;
}) {
  const phone = usePhone();
  const titleId = useId();
  const [comment, setComment] = useState('');
  const acknowledge = useAcknowledgeAlarms();
  const trimmed = comment.trim();
  const pending = acknowledge.isPending;
  const title = alarms.length === 1 ? 'Acknowledge alarm' : `Acknowledge ${alarms.length} alarms`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || pending) return;
    acknowledge.mutate(
      { recordId, alarmIds: alarms.map((a) => a.id!), comment: trimmed },
      {
        onSuccess: () => {
          onAcknowledged?.();
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={() => (pending ? undefined : onClose())}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
    >
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" component="div" sx={{ mb: 2 }}>
            {alarms.length === 1 ? (
              describe(alarms[0]!, timeZone)
            ) : (
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {alarms.map((alarm) => (
                  <li key={alarm.id}>{describe(alarm, timeZone)}</li>
                ))}
              </Box>
            )}
          </Typography>
          <TextField
            label="Comment"
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            required
            multiline
            minRows={3}
            fullWidth
            autoFocus
            helperText={
              trimmed === ''
                ? 'A comment is required'
                : `${comment.length.toLocaleString('en-US')} / ${ALARM_COMMENT_MAX_LENGTH.toLocaleString('en-US')} characters`
            }
            slotProps={{ htmlInput: { maxLength: ALARM_COMMENT_MAX_LENGTH } }}
          />
          {acknowledge.isError ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              Could not acknowledge: {errorMessage(acknowledge.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={trimmed === ''} loading={pending}>
            Acknowledge
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/**
 * Dismiss one alarm, after saying what that means: it stops counting in the
 * record's status for the whole organization and stays listed as dismissed.
 */
export function DismissDialog({
  recordId,
  alarm,
  timeZone,
  onClose,
}: {
  recordId: string;
  alarm: TExcursionAlarm;
  timeZone: string;
  onClose: () => void;
}) {
  const phone = usePhone();
  const titleId = useId();
  const dismiss = useDismissAlarms();
  const pending = dismiss.isPending;
  return (
    <Dialog
      open
      onClose={() => (pending ? undefined : onClose())}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
      fullScreen={phone}
    >
      <DialogTitle id={titleId}>Dismiss alarm?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {describe(alarm, timeZone)} will no longer count in the record&apos;s status, for everyone
          in your organization. It stays listed here as dismissed.
        </DialogContentText>
        {dismiss.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            Could not dismiss: {errorMessage(dismiss.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color="error"
          loading={pending}
          onClick={() =>
            dismiss.mutate({ recordId, alarmIds: [alarm.id!] }, { onSuccess: onClose })
          }
        >
          Dismiss
        </Button>
      </DialogActions>
    </Dialog>
  );
}
