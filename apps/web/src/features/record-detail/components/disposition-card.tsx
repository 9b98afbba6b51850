import {
  DISPOSITION_COMMENT_MAX_LENGTH,
  DISPOSITION_DECISIONS,
  DISPOSITION_DECISION_LABELS,
  DISPOSITION_PERMISSION,
  SIGNATURE_MEANING_LABELS,
  unacknowledgedReleaseMessage,
  type TDispositionDecision,
  type TExcursionAlarm,
  type TRecord,
  type TRecordDisposition,
  type TSignatureMeaning,
} from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import GavelRounded from '@mui/icons-material/GavelRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { characterCount } from '../../../components/change-signature';
import {
  SignatureMeaningField,
  SignaturePasswordField,
  SignerNote,
} from '../../../components/change-signature-fields';
import { errorMessage } from '../../../components/error-handler';
import { FormDialog } from '../../../components/form-dialog';
import { isApiError } from '../../../lib/api-error';
import { hasPermission } from '../../../lib/session';
import { useCurrentUser } from '../../session';
import { useDecideDisposition, useRecordDispositions } from '../api/record-disposition';
import { SectionCard } from './section-card';

const DECISION_COLOURS: Record<TDispositionDecision, 'success' | 'warning' | 'error'> = {
  RELEASED: 'success',
  QUARANTINED: 'warning',
  REJECTED: 'error',
};

/** The alarms that still need a signature: neither acknowledged nor dismissed. */
export function awaitingAcknowledgement(alarms: readonly TExcursionAlarm[] | undefined): number {
  return (alarms ?? []).filter((a) => a.acknowledged !== true && a.dismissed !== true).length;
}

function DecisionChip({ decision }: { decision: TDispositionDecision }) {
  return (
    <Chip
      size="small"
      color={DECISION_COLOURS[decision]}
      label={DISPOSITION_DECISION_LABELS[decision]}
    />
  );
}

function signedLine(d: TRecordDisposition, timeZone: string): string {
  return `Signed by ${d.signed_by}, ${formatDateTime(d.signed_at, timeZone)} · ${SIGNATURE_MEANING_LABELS[d.meaning]}`;
}

/**
 * Sign a release decision (issue 14 item 2): decision, comment, meaning and
 * the password again. RELEASED is refused here, with the server's words,
 * while alarms await acknowledgement; the server checks again.
 */
function DecisionDialog({
  recordId,
  unacknowledged,
  onClose,
}: {
  recordId: string;
  unacknowledged: number;
  onClose: () => void;
}) {
  const labelId = useId();
  const [decision, setDecision] = useState<TDispositionDecision | ''>('');
  const [comment, setComment] = useState('');
  const [meaning, setMeaning] = useState<TSignatureMeaning | ''>('');
  const [password, setPassword] = useState('');
  const [tried, setTried] = useState(false);
  const decide = useDecideDisposition();
  const fields = isApiError(decide.error) ? decide.error.fields : {};
  const trimmed = comment.trim();
  const releaseRefused =
    decision === 'RELEASED' && unacknowledged > 0
      ? unacknowledgedReleaseMessage(unacknowledged)
      : undefined;
  const errors = {
    decision:
      releaseRefused ??
      fields.decision ??
      (tried && decision === '' ? 'Choose a decision' : undefined),
    comment: fields.comment ?? (tried && trimmed === '' ? 'A comment is required' : undefined),
    meaning:
      fields.meaning ?? (tried && meaning === '' ? 'Choose what your signature means' : undefined),
    password:
      fields.password ?? (tried && password === '' ? 'Enter your password to sign' : undefined),
  };
  const known = new Set(['decision', 'comment', 'meaning', 'password']);
  const other =
    decide.isError && !Object.keys(fields).some((f) => known.has(f))
      ? `Could not sign the decision: ${errorMessage(decide.error)}`
      : null;

  const submit = () => {
    setTried(true);
    if (decision === '' || trimmed === '' || meaning === '' || password === '' || releaseRefused)
      return;
    decide.mutate(
      { recordId, decision, comment: trimmed, meaning, password },
      { onSuccess: onClose, onError: () => setPassword('') },
    );
  };

  return (
    <FormDialog
      title="Sign a release decision"
      onClose={onClose}
      onSubmit={submit}
      pending={decide.isPending}
      error={other}
      submitLabel="Sign decision"
    >
      <Stack spacing={2}>
        <FormControl required error={errors.decision !== undefined}>
          <FormLabel id={labelId}>Decision</FormLabel>
          <RadioGroup
            row
            aria-labelledby={labelId}
            name="decision"
            value={decision}
            onChange={(event) => {
              setDecision(event.target.value as TDispositionDecision);
              if (decide.isError) decide.reset();
            }}
          >
            {DISPOSITION_DECISIONS.map((d) => (
              <FormControlLabel
                key={d}
                value={d}
                control={<Radio autoFocus={d === DISPOSITION_DECISIONS[0]} />}
                label={DISPOSITION_DECISION_LABELS[d]}
              />
            ))}
          </RadioGroup>
          {errors.decision ? (
            <FormHelperText sx={{ mx: 0 }} role="alert">
              {errors.decision}
            </FormHelperText>
          ) : null}
        </FormControl>
        <TextField
          label="Comment"
          name="comment"
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          required
          multiline
          minRows={3}
          fullWidth
          error={errors.comment !== undefined}
          helperText={errors.comment ?? characterCount(comment, DISPOSITION_COMMENT_MAX_LENGTH)}
          slotProps={{ htmlInput: { maxLength: DISPOSITION_COMMENT_MAX_LENGTH } }}
        />
        <SignatureMeaningField value={meaning} onChange={setMeaning} error={errors.meaning} />
        <SignaturePasswordField value={password} onChange={setPassword} error={errors.password} />
        <SignerNote subject="this decision" />
      </Stack>
    </FormDialog>
  );
}

/**
 * "Release decision": the record's current signed decision (who, when,
 * meaning, comment) or none yet, every earlier one below it (superseded,
 * never edited), and, for whoever may decide, the button that signs a new one.
 */
export function DispositionCard({
  record,
  alarms,
  timeZone,
}: {
  record: TRecord & { id: string };
  alarms: readonly TExcursionAlarm[] | undefined;
  timeZone: string;
}) {
  const user = useCurrentUser();
  const canDecide = hasPermission(user, DISPOSITION_PERMISSION);
  const history = useRecordDispositions(record.id);
  const [open, setOpen] = useState(false);
  const current = record.disposition ?? null;
  const earlier = (history.data ?? []).filter((d) => d.id !== current?.id);
  const unacknowledged = awaitingAcknowledgement(alarms);

  return (
    <SectionCard
      title="Release decision"
      action={
        canDecide ? (
          <Button size="small" startIcon={<GavelRounded />} onClick={() => setOpen(true)}>
            {current ? 'New decision' : 'Decide'}
          </Button>
        ) : undefined
      }
    >
      {current ? (
        <Box aria-label="Current decision" role="group">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
            <DecisionChip decision={current.decision} />
          </Stack>
          <Typography variant="body2">{signedLine(current, timeZone)}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {current.comment}
          </Typography>
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No release decision yet.
          {unacknowledged > 0
            ? ` ${unacknowledged === 1 ? '1 alarm awaits' : `${unacknowledged} alarms await`} acknowledgement before the goods can be released.`
            : ''}
        </Typography>
      )}
      {earlier.length > 0 ? (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
            Earlier decisions (superseded)
          </Typography>
          <Stack component="ul" spacing={1} sx={{ m: 0, pl: 0, listStyle: 'none' }}>
            {earlier.map((d) => (
              <li key={d.id}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <DecisionChip decision={d.decision} />
                  <Typography variant="body2">{signedLine(d, timeZone)}</Typography>
                </Stack>
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{ overflowWrap: 'anywhere' }}
                >
                  {d.comment}
                </Typography>
              </li>
            ))}
          </Stack>
        </Box>
      ) : null}
      {history.isError ? (
        <Alert severity="warning" sx={{ mt: 2 }}>
          The earlier decisions could not be loaded: {errorMessage(history.error)}
        </Alert>
      ) : null}
      {open ? (
        <DecisionDialog
          recordId={record.id}
          unacknowledged={unacknowledged}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </SectionCard>
  );
}
