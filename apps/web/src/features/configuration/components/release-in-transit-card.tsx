import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useChangeSignature } from '../../../components/change-signature';
import type { ConfigurationAccess } from '../access';
import { saveFailure } from '../form-fields';
import { useUpdateReleaseInTransit } from '../api/update-org-settings';
import { focusFirstError } from '../use-form-state';
import { OrgSettingsCard } from './org-settings-card';
import { SettingsFormFooter } from './settings-form-footer';

function ReleaseInTransitForm({
  allowed,
  disabled,
  onSaved,
}: {
  allowed: boolean;
  disabled: boolean;
  onSaved: (message: string) => void;
}) {
  const [value, setValue] = useState(allowed);
  const [formError, setFormError] = useState<string | null>(null);
  const save = useUpdateReleaseInTransit();
  const signature = useChangeSignature(false);
  const formRef = useRef<HTMLFormElement>(null);
  const helpId = useId();
  const dirty = value !== allowed;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending || !dirty) return;
    if (!signature.check()) {
      focusFirstError(formRef.current);
      return;
    }
    save.mutate(
      { allowReleaseInTransit: value, change: signature.body() },
      {
        onSuccess: (reply) => {
          setValue(reply.allow_release_in_transit === true);
          setFormError(null);
          signature.reset();
          onSaved('Release setting saved');
        },
        onError: (error) => {
          if (signature.fail(error)) focusFirstError(formRef.current);
          else setFormError(saveFailure(error, []).message);
        },
      },
    );
  };

  return (
    <Box
      component="form"
      ref={formRef}
      noValidate
      onSubmit={submit}
      sx={{ px: { xs: 2, sm: 3 }, pb: 2.5 }}
    >
      <FormControlLabel
        control={
          <Switch
            checked={value}
            onChange={(event) => setValue(event.target.checked)}
            disabled={disabled}
            slotProps={{ input: { 'aria-describedby': helpId } }}
          />
        }
        label="Allow release while a shipment is in transit"
      />
      <FormHelperText id={helpId} sx={{ mx: 0 }}>
        {value
          ? 'A shipment may be released before its trip has ended; the signer must give a reason.'
          : 'A shipment can be released only once it has arrived or its record has stopped.'}
      </FormHelperText>
      <SettingsFormFooter
        disabled={disabled}
        dirty={dirty}
        signature={signature}
        formError={formError}
        pending={save.isPending}
        onDiscard={() => {
          setValue(allowed);
          setFormError(null);
        }}
      />
    </Box>
  );
}

/**
 * The organization's release rule (issue 35, docs/decisions/disposition.md):
 * whether a shipment may be released before its trip has ended. Off by
 * default; when on, a release in transit still needs the signer's reason.
 */
export function ReleaseInTransitCard({
  access,
  onSaved,
}: {
  access: ConfigurationAccess;
  onSaved: (message: string) => void;
}) {
  return (
    <OrgSettingsCard
      access={access}
      title="Release decisions"
      description="Whether quality staff may release a shipment whose trip has not yet ended (not arrived and its record not stopped). Rejecting and quarantining are always allowed."
      what="the release setting"
      viewOnlyNote="You can view the release setting; changing it needs a location or organization administration role."
    >
      {(settings, disabled) => (
        <ReleaseInTransitForm
          key={String(settings.allow_release_in_transit)}
          allowed={settings.allow_release_in_transit === true}
          disabled={disabled}
          onSaved={onSaved}
        />
      )}
    </OrgSettingsCard>
  );
}
