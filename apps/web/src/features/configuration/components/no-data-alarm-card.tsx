import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useRef, type FormEvent } from 'react';
import { useChangeSignature } from '../../../components/change-signature';
import type { ConfigurationAccess } from '../access';
import { useUpdateNoDataFactor } from '../api/update-org-settings';
import {
  NO_DATA_FACTOR_FIELDS,
  NO_DATA_FACTOR_MESSAGE,
  noDataFactorChange,
  noDataFactorFormFrom,
  validateNoDataFactorForm,
  type NoDataFactorField,
  type NoDataFactorFormValues,
} from '../no-data-factor-form';
import { focusFirstError, useFormState } from '../use-form-state';
import { SettingsFormFooter } from './settings-form-footer';
import { OrgSettingsCard } from './org-settings-card';

function NoDataFactorForm({
  factor,
  disabled,
  onSaved,
}: {
  factor: number | undefined;
  disabled: boolean;
  onSaved: (message: string) => void;
}) {
  const form = useFormState<NoDataFactorFormValues, NoDataFactorField>(
    noDataFactorFormFrom(factor),
    validateNoDataFactorForm,
  );
  const save = useUpdateNoDataFactor();
  const signature = useChangeSignature(false);
  const formRef = useRef<HTMLFormElement>(null);
  const change = noDataFactorChange(form.values, factor);
  // Typed but not a number: still a change to check (and refuse) on Save.
  const dirty = form.values.no_data_factor.trim() !== noDataFactorFormFrom(factor).no_data_factor;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const valid = form.check();
    if (!signature.check() || !valid) {
      focusFirstError(formRef.current);
      return;
    }
    if (change === undefined) return;
    save.mutate(
      { noDataFactor: change, change: signature.body() },
      {
        onSuccess: (reply) => {
          form.reset(noDataFactorFormFrom(reply.no_data_factor));
          signature.reset();
          onSaved('No-data alarm setting saved');
        },
        onError: (error) => {
          if (signature.fail(error)) focusFirstError(formRef.current);
          else form.fail(error, NO_DATA_FACTOR_FIELDS);
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
      <Box sx={{ maxWidth: { md: 372 }, pt: 1 }}>
        <TextField
          label="No data after (transmit intervals)"
          value={form.values.no_data_factor}
          onChange={(event) => form.set('no_data_factor', event.target.value)}
          error={Boolean(form.errors.no_data_factor)}
          helperText={form.errors.no_data_factor ?? `${NO_DATA_FACTOR_MESSAGE}; 3 by default`}
          disabled={disabled}
          autoComplete="off"
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        />
      </Box>
      <SettingsFormFooter
        disabled={disabled}
        dirty={dirty}
        signature={signature}
        formError={form.formError}
        pending={save.isPending}
        onDiscard={() => form.reset(noDataFactorFormFrom(factor))}
      />
    </Box>
  );
}

/**
 * The organization's no-data alarm setting (issue 14 item 4,
 * docs/decisions/no-data-alarm.md): how long a running real-time tag may stay
 * silent, in transmit intervals, before it raises a No data alarm.
 */
export function NoDataAlarmCard({
  access,
  onSaved,
}: {
  access: ConfigurationAccess;
  onSaved: (message: string) => void;
}) {
  return (
    <OrgSettingsCard
      access={access}
      title="No-data alarm"
      description="A running real-time tag (rt or nanotag) that sends no temperatures for longer than this many transmit intervals (its measurement interval when it has none) raises a No data alarm; it closes when data arrives again."
      what="the no-data alarm setting"
      viewOnlyNote="You can view the no-data alarm setting; changing it needs a location or organization administration role."
    >
      {(settings, disabled) => (
        <NoDataFactorForm factor={settings.no_data_factor} disabled={disabled} onSaved={onSaved} />
      )}
    </OrgSettingsCard>
  );
}
