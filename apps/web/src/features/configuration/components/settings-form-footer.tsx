import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ChangeSignatureState } from '../../../components/change-signature';
import { ChangeSignatureFields } from '../../../components/change-signature-fields';

/**
 * The foot of an organization settings form (geo-fence, calibration, no-data
 * alarm): the reason for change (and the signature when the server asks for
 * one) once something changed, the form's error, and Discard changes / Save.
 * Nothing but the error when the user may only view the settings.
 */
export function SettingsFormFooter({
  disabled,
  dirty,
  signature,
  formError,
  pending,
  onDiscard,
}: {
  disabled: boolean;
  dirty: boolean;
  signature: ChangeSignatureState;
  formError: string | null | undefined;
  pending: boolean;
  /** Puts the form back to the stored settings (the signature step is reset here). */
  onDiscard: () => void;
}) {
  return (
    <>
      {disabled || !dirty ? null : (
        <Box sx={{ mt: 3, maxWidth: { md: 720 } }}>
          <ChangeSignatureFields state={signature} reasonVisible />
        </Box>
      )}
      {formError ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {formError}
        </Alert>
      ) : null}
      {disabled ? null : (
        <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'flex-end' }}>
          {dirty ? (
            <Button
              onClick={() => {
                onDiscard();
                signature.reset();
              }}
              disabled={pending}
            >
              Discard changes
            </Button>
          ) : null}
          <Button type="submit" variant="contained" loading={pending} disabled={!dirty}>
            {signature.step.signing ? 'Sign and save' : 'Save'}
          </Button>
        </Stack>
      )}
    </>
  );
}
