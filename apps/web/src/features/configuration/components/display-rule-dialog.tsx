import { DISPLAY_RULE_FIELDS, type TDataDisplayRuleView } from '@coldtrace/contract';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { FormDialog } from '../../../components/form-dialog';
import { DISPLAY_RULE_FIELD_LABELS } from '../../../lib/display-rule';
import { useCreateDisplayRule, useRuleRoles, useUpdateDisplayRule } from '../../display-rules';
import {
  DECIMAL_CHOICES,
  DISPLAY_RULE_FORM_FIELDS,
  EVERYONE,
  OWN_UNIT,
  emptyRuleValues,
  ruleAudience,
  ruleCreateBody,
  rulePatchBody,
  ruleValuesOf,
  toggleHiddenField,
  validateRuleForm,
  type DisplayRuleFormField,
  type DisplayRuleFormValues,
} from '../display-rule-form';
import { useFormState } from '../use-form-state';

const DECIMAL_EXAMPLE = { 0: '5 °C', 1: '4.5 °C', 2: '4.55 °C' } as const;

/**
 * Add or edit a data display rule: for whom (a role or everyone; fixed once
 * created), the unit, the decimals and the record fields not shown.
 */
export function DisplayRuleDialog({
  rule,
  rules,
  onClose,
  onSaved,
}: {
  rule?: TDataDisplayRuleView;
  /** The rules there are: a role with one is not offered again. */
  rules: readonly TDataDisplayRuleView[];
  onClose: () => void;
  onSaved: (rule: TDataDisplayRuleView) => void;
}) {
  const form = useFormState<DisplayRuleFormValues, DisplayRuleFormField>(
    rule ? ruleValuesOf(rule) : emptyRuleValues(),
    validateRuleForm,
  );
  const roles = useRuleRoles(!rule);
  const create = useCreateDisplayRule();
  const update = useUpdateDisplayRule();
  const { values, errors } = form;
  const taken = new Set(rules.map((r) => r.role_id ?? EVERYONE));

  const submit = () => {
    if (!form.check()) return;
    const handlers = {
      onSuccess: onSaved,
      onError: (error: unknown) => form.fail(error, DISPLAY_RULE_FORM_FIELDS),
    };
    if (rule) update.mutate(rulePatchBody(rule, values), handlers);
    else create.mutate(ruleCreateBody(values), handlers);
  };

  const roleHelp = rule
    ? 'A rule stays with its role; the role’s rule applies before the one for everyone.'
    : roles.isError
      ? 'The roles could not be loaded (listing them needs the user administration permission); a rule for everyone is still possible.'
      : 'The rule of a user’s role applies; without one, the rule for everyone.';

  return (
    <FormDialog
      title={rule ? `Edit display rule: ${ruleAudience(rule)}` : 'Add display rule'}
      onClose={onClose}
      onSubmit={submit}
      pending={create.isPending || update.isPending}
      error={form.formError}
    >
      <Stack spacing={2.5}>
        <TextField
          select
          label="Applies to"
          value={values.role_id}
          onChange={(event) => form.set('role_id', event.target.value)}
          error={Boolean(errors.role_id)}
          helperText={errors.role_id ?? roleHelp}
          disabled={Boolean(rule)}
          fullWidth
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        >
          <MenuItem value={EVERYONE} disabled={!rule && taken.has(EVERYONE)}>
            {!rule && taken.has(EVERYONE) ? 'Everyone (has a rule)' : 'Everyone'}
          </MenuItem>
          {rule?.role_id ? (
            <MenuItem value={rule.role_id}>{rule.role_name ?? rule.role_id}</MenuItem>
          ) : null}
          {rule
            ? null
            : (roles.data ?? []).map((role) => (
                <MenuItem key={role.id} value={role.id} disabled={taken.has(role.id)}>
                  {taken.has(role.id) ? `${role.name} (has a rule)` : role.name}
                </MenuItem>
              ))}
        </TextField>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            label="Temperature unit"
            value={values.degrees_unit}
            onChange={(event) =>
              form.set('degrees_unit', event.target.value as DisplayRuleFormValues['degrees_unit'])
            }
            error={Boolean(errors.degrees_unit)}
            helperText={
              errors.degrees_unit ??
              (values.degrees_unit === OWN_UNIT
                ? 'Each user’s Units setting'
                : 'Instead of each user’s Units setting')
            }
            fullWidth
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          >
            <MenuItem value={OWN_UNIT}>Each user’s own</MenuItem>
            <MenuItem value="C">°C</MenuItem>
            <MenuItem value="F">°F</MenuItem>
          </TextField>
          <TextField
            select
            label="Decimals"
            value={values.temperature_decimals}
            onChange={(event) =>
              form.set(
                'temperature_decimals',
                Number(event.target.value) as DisplayRuleFormValues['temperature_decimals'],
              )
            }
            error={Boolean(errors.temperature_decimals)}
            helperText={
              errors.temperature_decimals ??
              `Temperatures like ${DECIMAL_EXAMPLE[values.temperature_decimals]}`
            }
            fullWidth
          >
            {DECIMAL_CHOICES.map((n) => (
              <MenuItem key={n} value={n}>
                {n}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        <FormControl component="fieldset" error={Boolean(errors.hidden_fields)}>
          <FormLabel component="legend">Fields not shown</FormLabel>
          <FormGroup
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
              columnGap: 2,
            }}
          >
            {DISPLAY_RULE_FIELDS.map((field) => (
              <FormControlLabel
                key={field}
                label={DISPLAY_RULE_FIELD_LABELS[field]}
                control={
                  <Checkbox
                    checked={values.hidden_fields.includes(field)}
                    onChange={(event) =>
                      form.set(
                        'hidden_fields',
                        toggleHiddenField(values.hidden_fields, field, event.target.checked),
                      )
                    }
                  />
                }
              />
            ))}
          </FormGroup>
          <FormHelperText>
            {errors.hidden_fields ??
              'Hidden on the record page, in the lists and in reports (an audit entry keeps the change, not the values).'}
          </FormHelperText>
        </FormControl>
      </Stack>
    </FormDialog>
  );
}
