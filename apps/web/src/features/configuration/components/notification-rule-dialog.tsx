import {
  FUNCTION_OPERATORS,
  RULE_FIELDS,
  RULE_NAME_MAX_LENGTH,
  type TFunctionOperator,
  type TNotificationRule,
  type TRuleCombinator,
  type TRuleField,
  type TUnaryOperator,
  type TUserSmall,
} from '@coldtrace/contract';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormDialog } from '../../../components/form-dialog';
import { useCreateNotificationRule } from '../api/create-notification-rule';
import { useNotifiableUsers } from '../api/list-notifiable-users';
import { useUpdateNotificationRule } from '../api/update-notification-rule';
import {
  emptyCondition,
  NOTIFICATION_RULE_FIELDS,
  RULE_FIELD_LABELS,
  ruleBody,
  ruleValuesOf,
  validateRuleForm,
  type NotificationRuleField,
  type NotificationRuleFormValues,
  type RuleConditionValues,
} from '../notification-forms';
import { useFormState } from '../use-form-state';

const OPERATOR_LABELS: Record<TFunctionOperator, string> = {
  EQUALS: 'equals',
  ANY_OF: 'is any of',
  ALWAYS_TRUE: 'always',
};

const userLabel = (user: TUserSmall) => {
  const name = `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim();
  return name === '' ? (user.email ?? user.username) : `${name} (${user.email ?? user.username})`;
};

/** One condition row: IS / NOT, field, operator, value, remove. */
function ConditionRow({
  index,
  condition,
  onChange,
  onRemove,
}: {
  index: number;
  condition: RuleConditionValues;
  onChange: (next: RuleConditionValues) => void;
  onRemove: () => void;
}) {
  const always = condition.function_operator === 'ALWAYS_TRUE';
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={1.5}
        sx={{ alignItems: 'flex-start' }}
      >
        <TextField
          select
          size="small"
          label={`Condition ${index + 1}`}
          value={condition.operator}
          onChange={(event) =>
            onChange({ ...condition, operator: event.target.value as TUnaryOperator })
          }
          sx={{ minWidth: 110 }}
        >
          <MenuItem value="IS">Is</MenuItem>
          <MenuItem value="NOT">Is not</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Field"
          value={condition.field}
          disabled={always}
          onChange={(event) => onChange({ ...condition, field: event.target.value as TRuleField })}
          sx={{ minWidth: 180 }}
          fullWidth
        >
          {RULE_FIELDS.map((field) => (
            <MenuItem key={field} value={field}>
              {RULE_FIELD_LABELS[field]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Test"
          value={condition.function_operator}
          onChange={(event) =>
            onChange({ ...condition, function_operator: event.target.value as TFunctionOperator })
          }
          sx={{ minWidth: 130 }}
        >
          {FUNCTION_OPERATORS.map((operator) => (
            <MenuItem key={operator} value={operator}>
              {OPERATOR_LABELS[operator]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Value"
          value={always ? '' : condition.value}
          disabled={always}
          onChange={(event) => onChange({ ...condition, value: event.target.value })}
          helperText={condition.function_operator === 'ANY_OF' ? 'Separate values by commas' : ' '}
          fullWidth
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: 2000 } }}
        />
        <IconButton aria-label={`Remove condition ${index + 1}`} onClick={onRemove}>
          <DeleteOutlined />
        </IconButton>
      </Stack>
    </Paper>
  );
}

/** Create or edit a notification rule: who is notified, and when (a group of conditions). */
export function NotificationRuleDialog({
  rule,
  onClose,
  onSaved,
}: {
  rule?: TNotificationRule;
  onClose: () => void;
  onSaved: (rule: TNotificationRule) => void;
}) {
  const form = useFormState<NotificationRuleFormValues, NotificationRuleField>(
    rule
      ? ruleValuesOf(rule)
      : { name: '', users: [], combinator: 'AND', conditions: [emptyCondition()] },
    validateRuleForm,
  );
  const users = useNotifiableUsers();
  const create = useCreateNotificationRule();
  const update = useUpdateNotificationRule();
  const { values, errors } = form;

  const submit = () => {
    if (!form.check()) return;
    const body = ruleBody(values);
    const handlers = {
      onSuccess: onSaved,
      onError: (error: unknown) => form.fail(error, NOTIFICATION_RULE_FIELDS),
    };
    if (rule?.id) update.mutate({ ruleId: rule.id, body }, handlers);
    else create.mutate(body, handlers);
  };

  const options = users.data ?? [];
  const chosen = values.users.map(
    (id) => options.find((u) => u.id === id) ?? { id, username: id, email: id },
  );
  const setCondition = (index: number, next: RuleConditionValues | null) =>
    form.set(
      'conditions',
      next === null
        ? values.conditions.filter((_, i) => i !== index)
        : values.conditions.map((c, i) => (i === index ? next : c)),
    );

  return (
    <FormDialog
      title={rule ? 'Edit notification rule' : 'Add notification rule'}
      onClose={onClose}
      onSubmit={submit}
      pending={create.isPending || update.isPending}
      error={form.formError}
      maxWidth="md"
    >
      <Stack spacing={2}>
        <TextField
          label="Name"
          value={values.name}
          onChange={(event) => form.set('name', event.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name ?? 'For example: Insulin shipments with ACME'}
          required
          autoFocus
          fullWidth
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: RULE_NAME_MAX_LENGTH } }}
        />
        {users.data === null ? (
          <Alert severity="info">
            Listing the people of the organization needs the user administration permission; the
            people already chosen are kept.
          </Alert>
        ) : null}
        <Autocomplete
          multiple
          options={options}
          value={chosen}
          loading={users.isPending}
          getOptionLabel={userLabel}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          onChange={(_event, next) =>
            form.set(
              'users',
              next.map((u) => u.id),
            )
          }
          renderInput={(params) => (
            <TextField
              {...params}
              label="People to notify"
              required
              error={Boolean(errors.users)}
              helperText={
                errors.users ?? 'They get the alarm e-mail of every record the rule matches'
              }
            />
          )}
        />
        <TextField
          select
          label="Match"
          value={values.combinator}
          onChange={(event) => form.set('combinator', event.target.value as TRuleCombinator)}
          helperText="Alarms of records that meet these conditions are e-mailed to the people above"
          fullWidth
        >
          <MenuItem value="AND">All conditions</MenuItem>
          <MenuItem value="OR">Any condition</MenuItem>
        </TextField>
        <Stack spacing={1.5} aria-label="Conditions" role="group">
          {values.conditions.length === 0 ? (
            <Typography color="text.secondary">
              No conditions: with "All conditions" every record matches, with "Any condition" none
              does.
            </Typography>
          ) : null}
          {values.conditions.map((condition, index) => (
            <ConditionRow
              key={index}
              index={index}
              condition={condition}
              onChange={(next) => setCondition(index, next)}
              onRemove={() => setCondition(index, null)}
            />
          ))}
          {errors.conditions ? (
            <Typography color="error" variant="body2" role="alert">
              {errors.conditions}
            </Typography>
          ) : null}
          <div>
            <Button
              startIcon={<Add />}
              onClick={() => form.set('conditions', [...values.conditions, emptyCondition()])}
            >
              Add condition
            </Button>
          </div>
        </Stack>
      </Stack>
    </FormDialog>
  );
}
