import type { TOrganizationSettings } from '@coldtrace/contract';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useChangeSignature } from '../../../components/change-signature';
import { useUpdateOrgSwitches, type OrgSwitchName } from '../api/update-org-settings';
import { saveFailure } from '../form-fields';
import { focusFirstError } from '../use-form-state';
import { SettingsFormFooter } from './settings-form-footer';

/** One on/off organization setting: its contract name, label and what each position means. */
export interface SwitchSpec {
  name: OrgSwitchName;
  label: string;
  on: string;
  off: string;
}

function OneSwitch({
  spec,
  checked,
  disabled,
  onChange,
}: {
  spec: SwitchSpec;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const helpId = useId();
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            onChange={(event) => onChange(event.target.checked)}
            disabled={disabled}
            slotProps={{ input: { 'aria-describedby': helpId } }}
          />
        }
        label={spec.label}
      />
      <FormHelperText id={helpId} sx={{ mx: 0 }}>
        {checked ? spec.on : spec.off}
      </FormHelperText>
    </Box>
  );
}

/**
 * Switches of the organization settings saved together (reason for change and,
 * when the change closes alarms, a signature: `SettingsFormFooter`).
 */
export function SwitchesForm({
  switches,
  settings,
  disabled,
  savedMessage,
  onSaved,
}: {
  switches: readonly SwitchSpec[];
  settings: TOrganizationSettings;
  disabled: boolean;
  savedMessage: string;
  onSaved: (message: string) => void;
}) {
  const stored = (s: TOrganizationSettings) =>
    Object.fromEntries(switches.map((w) => [w.name, s[w.name] === true])) as Record<
      OrgSwitchName,
      boolean
    >;
  const [values, setValues] = useState(() => stored(settings));
  const [formError, setFormError] = useState<string | null>(null);
  const save = useUpdateOrgSwitches();
  const signature = useChangeSignature(false);
  const formRef = useRef<HTMLFormElement>(null);
  const changed = switches.filter((w) => values[w.name] !== (settings[w.name] === true));
  const dirty = changed.length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending || !dirty) return;
    if (!signature.check()) {
      focusFirstError(formRef.current);
      return;
    }
    const patch = Object.fromEntries(changed.map((w) => [w.name, values[w.name]]));
    save.mutate(
      { switches: patch, change: signature.body() },
      {
        onSuccess: (reply) => {
          setValues(stored(reply));
          setFormError(null);
          signature.reset();
          onSaved(savedMessage);
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
      sx={{ px: { xs: 2, sm: 3 }, pb: 2.5, display: 'grid', gap: 1.5 }}
    >
      {switches.map((spec) => (
        <OneSwitch
          key={spec.name}
          spec={spec}
          checked={values[spec.name]}
          disabled={disabled}
          onChange={(checked) => setValues((v) => ({ ...v, [spec.name]: checked }))}
        />
      ))}
      <SettingsFormFooter
        disabled={disabled}
        dirty={dirty}
        signature={signature}
        formError={formError}
        pending={save.isPending}
        onDiscard={() => {
          setValues(stored(settings));
          setFormError(null);
        }}
      />
    </Box>
  );
}
