import type { TCalibrationSettings, TExpiredCalibrationStart } from '@coldtrace/contract';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useRef, type FormEvent } from 'react';
import { useChangeSignature } from '../../../components/change-signature';
import type { ConfigurationAccess } from '../access';
import { useUpdateCalibrationSettings } from '../api/update-org-settings';
import {
  CALIBRATION_SETTINGS_FIELDS,
  CALIBRATION_SETTINGS_FIELD_PREFIX,
  calibrationSettingsFormFrom,
  calibrationSettingsUpdateBody,
  validateCalibrationSettingsForm,
  type CalibrationSettingsField,
  type CalibrationSettingsFormValues,
} from '../calibration-settings-form';
import { focusFirstError, useFormState } from '../use-form-state';
import { SettingsFormFooter } from './settings-form-footer';
import { OrgSettingsCard } from './org-settings-card';

const POLICIES: { value: TExpiredCalibrationStart; label: string }[] = [
  { value: 'WARN', label: 'Warn: start it and record the warning' },
  { value: 'REFUSE', label: 'Refuse: do not start it' },
];

function CalibrationSettingsForm({
  settings,
  disabled,
  onSaved,
}: {
  settings: TCalibrationSettings | undefined;
  disabled: boolean;
  onSaved: (message: string) => void;
}) {
  const form = useFormState<CalibrationSettingsFormValues, CalibrationSettingsField>(
    calibrationSettingsFormFrom(settings),
    validateCalibrationSettingsForm,
  );
  const save = useUpdateCalibrationSettings();
  const signature = useChangeSignature(false);
  const formRef = useRef<HTMLFormElement>(null);
  const changes = calibrationSettingsUpdateBody(form.values, settings);
  const dirty = Object.keys(changes).length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const valid = form.check();
    if (!signature.check() || !valid) {
      focusFirstError(formRef.current);
      return;
    }
    if (!dirty) return;
    save.mutate(
      { calibration: changes, change: signature.body() },
      {
        onSuccess: (reply) => {
          form.reset(calibrationSettingsFormFrom(reply.calibration_settings));
          signature.reset();
          onSaved('Calibration settings saved');
        },
        onError: (error) => {
          if (signature.fail(error)) focusFirstError(formRef.current);
          else form.fail(error, CALIBRATION_SETTINGS_FIELDS, CALIBRATION_SETTINGS_FIELD_PREFIX);
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
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
          maxWidth: { md: 760 },
          pt: 1,
        }}
      >
        <TextField
          label="Validity without a due date (months)"
          value={form.values.calibration_validity_months}
          onChange={(event) => form.set('calibration_validity_months', event.target.value)}
          error={Boolean(form.errors.calibration_validity_months)}
          helperText={
            form.errors.calibration_validity_months ??
            'For certificates that state no due date: months after the calibration (1 to 120)'
          }
          disabled={disabled}
          autoComplete="off"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        <TextField
          label="Due soon (days before the due date)"
          value={form.values.calibration_due_soon_days}
          onChange={(event) => form.set('calibration_due_soon_days', event.target.value)}
          error={Boolean(form.errors.calibration_due_soon_days)}
          helperText={
            form.errors.calibration_due_soon_days ??
            'Tags show "due soon" this many days before (0 to 365)'
          }
          disabled={disabled}
          autoComplete="off"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        <TextField
          select
          label="Starting a shipment on an expired tag"
          value={form.values.expired_calibration_start}
          onChange={(event) =>
            form.set('expired_calibration_start', event.target.value as TExpiredCalibrationStart)
          }
          error={Boolean(form.errors.expired_calibration_start)}
          helperText={
            form.errors.expired_calibration_start ??
            'Applies to the start action of xt1 and rt tags and to a nanotag first sample'
          }
          disabled={disabled}
          sx={{ gridColumn: { md: '1 / -1' } }}
        >
          {POLICIES.map((p) => (
            <MenuItem key={p.value} value={p.value}>
              {p.label}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <SettingsFormFooter
        disabled={disabled}
        dirty={dirty}
        signature={signature}
        formError={form.formError}
        pending={save.isPending}
        onDiscard={() => form.reset(calibrationSettingsFormFrom(settings))}
      />
    </Box>
  );
}

/** The organization's calibration lifecycle settings (issue 14 item 7). */
export function CalibrationSettingsCard({
  access,
  onSaved,
}: {
  access: ConfigurationAccess;
  onSaved: (message: string) => void;
}) {
  return (
    <OrgSettingsCard
      access={access}
      title="Calibration"
      description="When a tag's calibration certificate is due, when tags show it as due soon, and what happens when a shipment starts on a tag whose calibration has expired."
      what="the calibration settings"
      viewOnlyNote="You can view the calibration settings; changing them needs a location or organization administration role."
      fields={2}
    >
      {(settings, disabled) => (
        <CalibrationSettingsForm
          settings={settings.calibration_settings}
          disabled={disabled}
          onSaved={onSaved}
        />
      )}
    </OrgSettingsCard>
  );
}
