import { type TAuditReview } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState, type FormEvent } from 'react';
import { SignaturePasswordField, SignerNote } from '../../../components/change-signature-fields';
import { SecondFactorCodeField } from '../../../components/second-factor-field';
import { useCloseReview } from '../api/close-review';
import { entriesText, fieldError, periodLabel, refusalText } from '../display';
import { ReviewCommentField } from './review-comment-field';

/**
 * Close a month's review with an electronic signature (meaning Reviewed): a
 * comment, the password again and, where the organization asks for it, the
 * second factor (the same inputs as an alarm acknowledgement). What still
 * stands in the way (the month not ended, high-risk entries not reviewed) is
 * said before signing; the server decides and its refusal shows in words, a
 * wrong password or code on its field.
 */
export function CloseReviewDialog({
  review,
  timeZone,
  onClose,
}: {
  review: TAuditReview;
  timeZone: string;
  onClose: () => void;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const [comment, setComment] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const close = useCloseReview();
  const pending = close.isPending;
  const trimmed = comment.trim();
  const month = periodLabel(review.period);
  const { counts } = review;
  const listed = counts.high + counts.medium + counts.low;
  const commentError = fieldError(close.error, 'comment');
  const passwordError = fieldError(close.error, 'password');
  const codeError = fieldError(close.error, 'second_factor_code');
  const refusal = close.isError
    ? refusalText(close.error, ['comment', 'password', 'second_factor_code'])
    : null;
  const ready = trimmed !== '' && password !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || pending) return;
    close.mutate(
      { period: review.period, comment: trimmed, password, secondFactorCode: code },
      {
        onSuccess: onClose,
        onError: () => {
          // A password (and a code) is entered again for each try.
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
        <DialogTitle id={titleId}>Close the review of {month}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {entriesText(listed)} by people, {counts.reviewed.toLocaleString('en-US')} marked
            reviewed. Your signature means <strong>Reviewed</strong>. A closed review is never
            reopened and takes no more marks.
          </DialogContentText>
          {review.state === 'open' ? (
            <Alert severity="info" role="note" sx={{ mb: 2 }}>
              {month} has not ended: its review can be closed from{' '}
              {formatDateTime(review.end, timeZone)}.
            </Alert>
          ) : null}
          {counts.unreviewed_high > 0 ? (
            <Alert severity="warning" role="note" sx={{ mb: 2 }}>
              {counts.unreviewed_high === 1
                ? '1 high-risk entry is'
                : `${counts.unreviewed_high.toLocaleString('en-US')} high-risk entries are`}{' '}
              not reviewed yet: mark {counts.unreviewed_high === 1 ? 'it' : 'them'} before closing.
            </Alert>
          ) : null}
          <Box sx={{ display: 'grid', gap: 2 }}>
            <ReviewCommentField
              value={comment}
              onChange={(next) => {
                setComment(next);
                if (commentError !== undefined) close.reset();
              }}
              error={commentError}
              emptyHint="A comment is required, e.g. what the review covered"
              minRows={2}
            />
            <SignaturePasswordField
              value={password}
              onChange={(next) => {
                setPassword(next);
                // The server's message stays until its input changes.
                if (passwordError !== undefined) close.reset();
              }}
              error={passwordError}
            />
            <SecondFactorCodeField
              value={code}
              onChange={(next) => {
                setCode(next);
                if (codeError !== undefined) close.reset();
              }}
              error={codeError}
            />
            <SignerNote subject={`the review of ${month}`} />
          </Box>
          {refusal !== null ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              Could not close the review: {refusal}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!ready} loading={pending}>
            Sign and close
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
