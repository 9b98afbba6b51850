import {
  CHANGE_REASON_MAX_LENGTH,
  SIGNATURE_MEANINGS,
  SIGNATURE_MEANING_LABELS,
  type TSignatureMeaning,
} from '@coldtrace/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useCurrentUser } from '../features/session';
import { characterCount, type ChangeSignatureState } from './change-signature';
import { SecondFactorCodeField } from './second-factor-field';

/** The signer's printed name: first and last name, else the username. */
export function printedNameOf(user: {
  first_name?: string;
  last_name?: string;
  username: string;
}): string {
  const name = `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim();
  return name === '' ? user.username : name;
}

/** What an electronic signature means (Reviewed, Approved, Rejected): required. */
export function SignatureMeaningField({
  value,
  onChange,
  error,
  autoFocus = false,
}: {
  value: TSignatureMeaning | '';
  onChange: (meaning: TSignatureMeaning) => void;
  error?: string;
  /** Take the first focus (the first required input of the dialog). */
  autoFocus?: boolean;
}) {
  const labelId = useId();
  return (
    <FormControl required error={error !== undefined}>
      <FormLabel id={labelId}>Meaning of your signature</FormLabel>
      <RadioGroup
        row
        aria-labelledby={labelId}
        name="meaning"
        value={value}
        onChange={(event) => onChange(event.target.value as TSignatureMeaning)}
      >
        {SIGNATURE_MEANINGS.map((m) => (
          <FormControlLabel
            key={m}
            value={m}
            control={<Radio autoFocus={autoFocus && m === SIGNATURE_MEANINGS[0]} />}
            label={SIGNATURE_MEANING_LABELS[m]}
          />
        ))}
      </RadioGroup>
      {error ? <FormHelperText sx={{ mx: 0 }}>{error}</FormHelperText> : null}
    </FormControl>
  );
}

/** The password entered again to sign; a wrong one shows here. */
export function SignaturePasswordField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (password: string) => void;
  error?: string;
}) {
  return (
    <TextField
      label="Password"
      type="password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      fullWidth
      autoComplete="current-password"
      error={error !== undefined}
      helperText={error ?? 'Enter your password again to sign'}
    />
  );
}

/** Who signs, and what the signature stands for. */
export function SignerNote({ subject }: { subject: string }) {
  const user = useCurrentUser();
  return (
    <Typography variant="body2" color="text.secondary">
      Signing as <strong>{user ? printedNameOf(user) : 'you'}</strong>. This electronic signature is
      linked to {subject} for good and is the equivalent of your handwritten signature.
    </Typography>
  );
}

/**
 * "Reason for change" and, when the server says the change closes alarms,
 * the signature step (its sentence, meaning and password) inside the form
 * that makes the change. The reason shows when `reasonVisible` (the form knows
 * the change may need one) or once the server asked for it.
 */
export function ChangeSignatureFields({
  state,
  reasonVisible,
  disabled = false,
}: {
  state: ChangeSignatureState;
  reasonVisible: boolean;
  disabled?: boolean;
}) {
  const { values, step, errors, set } = state;
  const required = state.reasonNeeded || step.reasonRequired || step.signing;
  if (!reasonVisible && !required) return null;
  const count = characterCount(values.reason, CHANGE_REASON_MAX_LENGTH);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <TextField
        label="Reason for change"
        name="reason"
        value={values.reason}
        onChange={(event) => set('reason', event.target.value)}
        required={required}
        disabled={disabled}
        multiline
        minRows={2}
        fullWidth
        error={errors.reason !== undefined}
        helperText={
          errors.reason ??
          (required
            ? `Required: the change affects alarms. ${count}`
            : 'Optional: kept in the audit trail')
        }
        slotProps={{ htmlInput: { maxLength: CHANGE_REASON_MAX_LENGTH } }}
      />
      {step.signing ? (
        <Box
          component="fieldset"
          aria-label="Signature"
          sx={{ border: 0, m: 0, p: 0, minWidth: 0, display: 'grid', gap: 2 }}
        >
          <Alert severity="warning" role="alert">
            {step.signMessage}
          </Alert>
          <SignatureMeaningField
            value={values.meaning}
            onChange={(meaning) => set('meaning', meaning)}
            error={errors.meaning}
            autoFocus
          />
          <SignaturePasswordField
            value={values.password}
            onChange={(password) => set('password', password)}
            error={errors.password}
          />
          <SecondFactorCodeField
            value={values.secondFactorCode}
            onChange={(code) => set('secondFactorCode', code)}
            error={errors.secondFactorCode}
          />
          <SignerNote subject="this change and the alarms it closes" />
        </Box>
      ) : null}
    </Box>
  );
}
