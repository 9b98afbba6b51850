import { type TAuditReviewEntry } from '@coldtrace/contract';
import { auditActionLabel, formatDateTime } from '@coldtrace/domain';
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
import { useMarkEntries } from '../api/mark-entries';
import { entriesText, fieldError, periodLabel, refusalText, RISK_LABELS } from '../display';
import { ReviewCommentField } from './review-comment-field';

function describe(entry: TAuditReviewEntry, timeZone: string): string {
  const { event } = entry;
  return (
    `${RISK_LABELS[entry.risk]}: ${auditActionLabel(event.action)} by ${event.actor_name} ` +
    `on ${formatDateTime(event.occurred_at, timeZone)}`
  );
}

/**
 * Mark one entry, or every unmarked entry shown, as reviewed with a comment
 * (required). A mark is written once: the dialog says so. The server's
 * message about the comment shows on the field; any other refusal (the
 * month closed meanwhile, an entry of another month) in the alert, in words.
 */
export function MarkDialog({
  period,
  entries,
  timeZone,
  onClose,
}: {
  period: string;
  entries: readonly TAuditReviewEntry[];
  timeZone: string;
  onClose: () => void;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const [comment, setComment] = useState('');
  const mark = useMarkEntries();
  const pending = mark.isPending;
  const trimmed = comment.trim();
  const commentError = fieldError(mark.error, 'comment');
  const refusal = mark.isError ? refusalText(mark.error, ['comment']) : null;
  const single = entries.length === 1 ? entries[0] : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '' || pending) return;
    mark.mutate(
      { period, eventIds: entries.map((e) => e.event.id), comment: trimmed },
      { onSuccess: onClose },
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
        <DialogTitle id={titleId}>
          {single ? 'Mark entry reviewed' : `Mark ${entriesText(entries.length)} reviewed`}
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {single
              ? describe(single, timeZone)
              : `Every entry of ${periodLabel(period)} shown and not yet reviewed.`}
          </DialogContentText>
          <ReviewCommentField
            value={comment}
            onChange={(next) => {
              setComment(next);
              if (commentError !== undefined) mark.reset();
            }}
            error={commentError}
            emptyHint="What did you check? A comment is required"
            minRows={3}
          />
          <DialogContentText variant="body2" sx={{ mt: 2 }}>
            Your name, the time and the comment are kept with the {single ? 'entry' : 'entries'} and
            in the audit trail. A mark cannot be changed later.
          </DialogContentText>
          {refusal !== null ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              Could not mark as reviewed: {refusal}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={trimmed === ''} loading={pending}>
            Mark reviewed
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
