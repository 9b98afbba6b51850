import {
  DISPOSITION_COMMENT_MAX_LENGTH,
  DISPOSITION_DECISIONS,
  DISPOSITION_MEANING_TEXT,
  DISPOSITION_PERMISSION,
  inTransitReleaseMessage,
  SIGNATURE_MEANING_LABELS,
  secondFactorSuffix,
  TRANSIT_REASON_MAX_LENGTH,
  tripHasEnded,
  unacknowledgedReleaseMessage,
  type TDispositionDecision,
  type TExcursionAlarm,
  type TRecord,
  type TRecordDisposition,
} from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import GavelRounded from '@mui/icons-material/GavelRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { SignaturePasswordField, SignerNote } from '../../../components/change-signature-fields';
import { SecondFactorCodeField } from '../../../components/second-factor-field';
import { errorMessage } from '../../../components/error-handler';
import { FormDialog } from '../../../components/form-dialog';
import { isApiError } from '../../../lib/api-error';
import { hasPermission } from '../../../lib/session';
import { useOrgSettings } from '../../configuration';
import { DecisionChip } from '../../records';
import { useCurrentUser } from '../../session';
import { useDecideDisposition, useRecordDispositions } from '../api/record-disposition';
import { SectionCard } from './section-card';

/** The dialog's choices: what the signer does (each radio's accessible name). */
export const DECISION_CHOICES: Readonly<Record<TDispositionDecision, string>> = {
  RELEASED: 'Release',
  QUARANTINED: 'Quarantine',
  REJECTED: 'Reject',
};

/** The alarms that still need a signature: not acknowledged, dismissed or merged into another. */
export function awaitingAcknowledgement(alarms: readonly TExcursionAlarm[] | undefined): number {
  return (alarms ?? []).filter(
    (a) => a.acknowledged !== true && a.dismissed !== true && a.superseded_by == null,
  ).length;
}

/** Whether the record's trip has ended (arrived, or the record stopped), as the server decides. */
export function recordTripEnded(record: TRecord): boolean {
  return tripHasEnded(record.trip?.trip_status, record.stop_time != null);
}

/**
 * Why Release cannot be chosen (undefined: it can): alarms awaiting
 * acknowledgement, or a trip that has not ended where the organization does
 * not allow release in transit. The server checks the same again.
 */
export function releaseBlockedReason(
  unacknowledged: number,
  tripEnded: boolean,
  allowInTransit: boolean,
): string | undefined {
  if (unacknowledged > 0) return unacknowledgedReleaseMessage(unacknowledged);
  if (!tripEnded && !allowInTransit) return inTransitReleaseMessage(false);
  return undefined;
}

function signedLine(d: TRecordDisposition, timeZone: string): string {
  return `Signed by ${d.signed_by}, ${formatDateTime(d.signed_at, timeZone)} · ${SIGNATURE_MEANING_LABELS[d.meaning]}${secondFactorSuffix(d.second_factor)}`;
}

/** A decision's comment, and the reason it was released before the trip ended. */
function DecisionText({ d }: { d: TRecordDisposition }) {
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {d.comment}
      </Typography>
      {d.transit_reason ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          Released in transit: {d.transit_reason}
        </Typography>
      ) : null}
    </>
  );
}

/**
 * Sign a release decision (issue 14 item 2, issue 35): Release, Quarantine or
 * Reject, a comment and the password again. The signature's meaning follows
 * from the decision and is shown, not asked. Release is disabled, with the
 * reason, while alarms await acknowledgement or the trip has not ended (unless
 * the organization allows release in transit: then a reason is asked).
 */
function DecisionDialog({
  recordId,
  unacknowledged,
  tripEnded,
  onClose,
}: {
  recordId: string;
  unacknowledged: number;
  tripEnded: boolean;
  onClose: () => void;
}) {
  const labelId = useId();
  const settings = useOrgSettings();
  const allowInTransit = settings.data?.allow_release_in_transit === true;
  const [decision, setDecision] = useState<TDispositionDecision | ''>('');
  const [comment, setComment] = useState('');
  const [transitReason, setTransitReason] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [tried, setTried] = useState(false);
  const decide = useDecideDisposition();
  const fields = isApiError(decide.error) ? decide.error.fields : {};
  const trimmed = comment.trim();
  const releaseBlocked = releaseBlockedReason(unacknowledged, tripEnded, allowInTransit);
  const asksTransitReason = decision === 'RELEASED' && !tripEnded && allowInTransit;
  const errors = {
    decision: fields.decision ?? (tried && decision === '' ? 'Choose a decision' : undefined),
    comment: fields.comment ?? (tried && trimmed === '' ? 'A comment is required' : undefined),
    transit_reason:
      fields.transit_reason ??
      (tried && asksTransitReason && transitReason.trim() === ''
        ? 'Give the reason for releasing before the trip has ended'
        : undefined),
    password:
      fields.password ?? (tried && password === '' ? 'Enter your password to sign' : undefined),
  };
  const known = new Set([
    'decision',
    'comment',
    'transit_reason',
    'meaning',
    'password',
    'second_factor_code',
  ]);
  const other =
    decide.isError && !Object.keys(fields).some((f) => known.has(f))
      ? `Could not sign the decision: ${errorMessage(decide.error)}`
      : null;

  const submit = () => {
    setTried(true);
    if (decision === '' || trimmed === '' || password === '') return;
    if (decision === 'RELEASED' && releaseBlocked) return;
    if (asksTransitReason && transitReason.trim() === '') return;
    decide.mutate(
      {
        recordId,
        decision,
        comment: trimmed,
        password,
        ...(asksTransitReason ? { transit_reason: transitReason.trim() } : {}),
        ...(code.trim() === '' ? {} : { second_factor_code: code.trim() }),
      },
      {
        onSuccess: onClose,
        onError: () => {
          setPassword('');
          setCode('');
        },
      },
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
                disabled={d === 'RELEASED' && releaseBlocked !== undefined}
                control={<Radio />}
                label={DECISION_CHOICES[d]}
              />
            ))}
          </RadioGroup>
          {releaseBlocked ? (
            <FormHelperText sx={{ mx: 0 }} error={false}>
              {releaseBlocked}
            </FormHelperText>
          ) : null}
          {errors.decision ? (
            <FormHelperText sx={{ mx: 0 }} role="alert">
              {errors.decision}
            </FormHelperText>
          ) : null}
          {decision !== '' ? (
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {DISPOSITION_MEANING_TEXT[decision]}
            </Typography>
          ) : null}
        </FormControl>
        {asksTransitReason ? (
          <TextField
            label="Reason for releasing in transit"
            name="transit_reason"
            value={transitReason}
            onChange={(event) => setTransitReason(event.target.value)}
            required
            multiline
            minRows={2}
            fullWidth
            error={errors.transit_reason !== undefined}
            helperText={
              errors.transit_reason ??
              'The trip has not ended (not arrived, and the record not stopped).'
            }
            slotProps={{ htmlInput: { maxLength: TRANSIT_REASON_MAX_LENGTH } }}
          />
        ) : null}
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
        <SignaturePasswordField value={password} onChange={setPassword} error={errors.password} />
        <SecondFactorCodeField value={code} onChange={setCode} error={fields.second_factor_code} />
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
          <DecisionText d={current} />
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
                <DecisionText d={d} />
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
          tripEnded={recordTripEnded(record)}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </SectionCard>
  );
}
