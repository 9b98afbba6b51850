import {
  ALARM_COMMENT_MAX_LENGTH,
  CHANGE_REASON_MAX_LENGTH,
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
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { characterCount } from '../../../components/change-signature';
import {
  SignatureMeaningField,
  SignaturePasswordField,
  SignerNote,
} from '../../../components/change-signature-fields';
import { SecondFactorCodeField } from '../../../components/second-factor-field';
import { errorMessage } from '../../../components/error-handler';
import { isApiError } from '../../../lib/api-error';
import { useAcknowledgeAlarms } from '../api/acknowledge-alarms';
import { useDismissAlarms } from '../api/dismiss-alarms';
import { alarmTitle } from '../display';

function usePhone() {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
}

/** Cancel, and the submit button (disabled until the form is filled, busy while sending). */
function DialogButtons({
  onClose,
  pending,
  disabled,
  color = 'primary',
  children,
}: {
  onClose: () => void;
  pending: boolean;
  disabled: boolean;
  color?: 'primary' | 'error';
  children: ReactNode;
}) {
  return (
    <DialogActions sx={{ px: 3, pb: 2 }}>
      <Button onClick={onClose} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" variant="contained" color={color} disabled={disabled} loading={pending}>
        {children}
      </Button>
    </DialogActions>
  );
}

function describe(alarm: TExcursionAlarm, timeZone: string): string {
  return `${alarmTitle(alarm)} from ${formatDateTime(alarm.start_time, timeZone)}`;
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
  const [comment, setComment] = useState('');
  const [password, setPassword] = useState('');
  const [meaning, setMeaning] = useState<TSignatureMeaning | ''>('');
  const [code, setCode] = useState('');
  const acknowledge = useAcknowledgeAlarms();
  const trimmed = comment.trim();
  const pending = acknowledge.isPending;
  const title = alarms.length === 1 ? 'Acknowledge alarm' : `Acknowledge ${alarms.length} alarms`;
  const fieldErrors = isApiError(acknowledge.error) ? acknowledge.error.fields : {};
  const passwordError = fieldErrors.password;
  const codeError = fieldErrors.second_factor_code;
  const ready = trimmed !== '' && password !== '' && meaning !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || pending) return;
    acknowledge.mutate(
      {
        recordId,
        alarmIds: alarms.map((a) => a.id!),
        comment: trimmed,
        password,
        meaning,
        secondFactorCode: code.trim(),
      },
      {
        onSuccess: () => {
          onAcknowledged?.();
          onClose();
        },
        onError: () => {
          setPassword('');
          setCode('');
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
          <Box sx={{ mb: 2 }}>
            {/* The first required input, before the comment, gets the first focus. */}
            <SignatureMeaningField value={meaning} onChange={setMeaning} autoFocus />
          </Box>
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
                : characterCount(comment, ALARM_COMMENT_MAX_LENGTH)
            }
            slotProps={{ htmlInput: { maxLength: ALARM_COMMENT_MAX_LENGTH } }}
          />
          <Box sx={{ mt: 2, display: 'grid', gap: 2 }}>
            <SignaturePasswordField value={password} onChange={setPassword} error={passwordError} />
            <SecondFactorCodeField value={code} onChange={setCode} error={codeError} />
            <SignerNote subject={alarms.length === 1 ? 'this alarm' : 'these alarms'} />
          </Box>
          {acknowledge.isError && passwordError === undefined && codeError === undefined ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              Could not acknowledge: {errorMessage(acknowledge.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogButtons onClose={onClose} pending={pending} disabled={!ready}>
          Sign and acknowledge
        </DialogButtons>
      </Box>
    </Dialog>
  );
}

/**
 * Dismiss one alarm, after saying what that means: it stops counting in the
 * record's status for the whole organization and stays listed as dismissed,
 * with who and why. A reason is required (a dismissal is no lighter than an
 * acknowledgement): the button stays disabled until it is written; the
 * server's message about it shows on the field.
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
  const [reason, setReason] = useState('');
  const dismiss = useDismissAlarms();
  const pending = dismiss.isPending;
  const trimmed = reason.trim();
  const reasonError = isApiError(dismiss.error) ? dismiss.error.fields.reason : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || pending) return;
    dismiss.mutate({ recordId, alarmIds: [alarm.id!], reason: trimmed }, { onSuccess: onClose });
  };

  return (
    <Dialog
      open
      onClose={() => (pending ? undefined : onClose())}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
      fullScreen={phone}
    >
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>Dismiss alarm?</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {describe(alarm, timeZone)} will no longer count in the record&apos;s status, for
            everyone in your organization. It stays listed here as dismissed, with your name and
            reason.
          </DialogContentText>
          <TextField
            label="Reason"
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              if (reasonError !== undefined) dismiss.reset();
            }}
            required
            multiline
            minRows={3}
            fullWidth
            autoFocus
            error={reasonError !== undefined}
            helperText={
              reasonError ??
              (trimmed === ''
                ? 'Why is this alarm dismissed? A reason is required'
                : characterCount(reason, CHANGE_REASON_MAX_LENGTH))
            }
            slotProps={{ htmlInput: { maxLength: CHANGE_REASON_MAX_LENGTH } }}
          />
          {dismiss.isError && reasonError === undefined ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              Could not dismiss: {errorMessage(dismiss.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogButtons onClose={onClose} pending={pending} disabled={trimmed === ''} color="error">
          Dismiss
        </DialogButtons>
      </Box>
    </Dialog>
  );
}
