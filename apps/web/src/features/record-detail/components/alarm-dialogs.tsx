import {
  ALARM_COMMENT_MAX_LENGTH,
  SIGNATURE_MEANINGS,
  SIGNATURE_MEANING_LABELS,
  type TExcursionAlarm,
  type TSignatureMeaning,
} from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../components/error-handler';
import { isApiError } from '../../../lib/api-error';
import { useCurrentUser } from '../../session';
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

/** The signer's printed name: first and last name, else the username. */
function printedNameOf(user: { first_name?: string; last_name?: string; username: string }) {
  const name = `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim();
  return name === '' ? user.username : name;
}

/**
 * Acknowledge one or several alarms with an electronic signature (21 CFR
 * Part 11): the user enters the password again, chooses what the signature
 * means and writes a comment (all required: the button stays disabled until
 * then). Sent with client type WEB; the list shows the signature when the
 * reply arrives. A wrong password shows on the password field.
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
  const meaningId = useId();
  const user = useCurrentUser();
  const [comment, setComment] = useState('');
  const [password, setPassword] = useState('');
  const [meaning, setMeaning] = useState<TSignatureMeaning | ''>('');
  const acknowledge = useAcknowledgeAlarms();
  const trimmed = comment.trim();
  const pending = acknowledge.isPending;
  const title = alarms.length === 1 ? 'Acknowledge alarm' : `Acknowledge ${alarms.length} alarms`;
  const fieldErrors = isApiError(acknowledge.error) ? acknowledge.error.fields : {};
  const passwordError = fieldErrors.password;
  const ready = trimmed !== '' && password !== '' && meaning !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || pending) return;
    acknowledge.mutate(
      { recordId, alarmIds: alarms.map((a) => a.id!), comment: trimmed, password, meaning },
      {
        onSuccess: () => {
          onAcknowledged?.();
          onClose();
        },
        onError: () => setPassword(''),
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
          <FormControl required sx={{ mb: 2 }}>
            <FormLabel id={meaningId}>Meaning of your signature</FormLabel>
            <RadioGroup
              row
              aria-labelledby={meaningId}
              name="meaning"
              value={meaning}
              onChange={(event) => setMeaning(event.target.value as TSignatureMeaning)}
            >
              {SIGNATURE_MEANINGS.map((m) => (
                <FormControlLabel
                  key={m}
                  value={m}
                  // The first required field, before the comment, gets the first focus.
                  control={<Radio autoFocus={m === SIGNATURE_MEANINGS[0]} />}
                  label={SIGNATURE_MEANING_LABELS[m]}
                />
              ))}
            </RadioGroup>
          </FormControl>
          <TextField
            label="Comment"
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            required
            multiline
            minRows={3}
            fullWidth
            helperText={
              trimmed === ''
                ? 'A comment is required'
                : `${comment.length.toLocaleString('en-US')} / ${ALARM_COMMENT_MAX_LENGTH.toLocaleString('en-US')} characters`
            }
            slotProps={{ htmlInput: { maxLength: ALARM_COMMENT_MAX_LENGTH } }}
          />
          <TextField
            label="Password"
            type="password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
            fullWidth
            autoComplete="current-password"
            sx={{ mt: 2 }}
            error={passwordError !== undefined}
            helperText={passwordError ?? 'Enter your password again to sign'}
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            Signing as <strong>{user ? printedNameOf(user) : 'you'}</strong>. This electronic
            signature is linked to {alarms.length === 1 ? 'this alarm' : 'these alarms'} for good
            and is the equivalent of your handwritten signature.
          </Typography>
          {acknowledge.isError && passwordError === undefined ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              Could not acknowledge: {errorMessage(acknowledge.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!ready} loading={pending}>
            Sign and acknowledge
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
