import {
  NOTIFICATION_PLACEHOLDERS,
  NOTIFICATION_STATUSES,
  NOTIFICATION_SUBJECT_MAX_LENGTH,
  NOTIFICATION_TEMPLATE_MAX_LENGTH,
  NOTIFICATION_SETTING_TYPES,
  SUMMARY_SCHEDULES,
  type TNameAndAddressLocation,
  type TNotificationSetting,
  type TNotificationSettingType,
  type TNotificationStatus,
  type TSummarySchedule,
} from '@coldtrace/contract';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormDialog } from '../../../components/form-dialog';
import { useCreateNotificationSetting } from '../api/create-notification-setting';
import { useDropdownInfo } from '../api/get-dropdown-info';
import { useUpdateNotificationSetting } from '../api/update-notification-setting';
import {
  emptySettingValues,
  NOTIFICATION_SETTING_FIELDS,
  settingBody,
  settingValuesOf,
  validateSettingForm,
  type NotificationSettingField,
  type NotificationSettingFormValues,
} from '../notification-forms';
import { useFormState } from '../use-form-state';

export const STATUS_HELP: Record<TNotificationStatus, string> = {
  Enabled: 'E-mails are sent',
  Disabled: 'Nothing is sent',
  Test: 'Written to the notification log, nothing is sent',
};

const ANY = '';

/** What each schedule of a Summary setting sends, and when (docs/decisions/scheduled-reports.md). */
export const SCHEDULE_HELP: Record<TSummarySchedule | '', string> = {
  '': 'How often the summary is sent',
  DAILY: 'The day before, sent after 06:00',
  WEEKLY: 'The week before (Monday to Sunday), sent Mondays after 06:00',
};
const SCHEDULE_LABELS: Record<TSummarySchedule, string> = { DAILY: 'Daily', WEEKLY: 'Weekly' };

interface Choice {
  value: string;
  label: string;
}

/** A select with "Any" first; a stored value no longer offered stays, marked as such. */
function ChoiceSelect({
  label,
  value,
  choices,
  onChange,
  helperText,
}: {
  label: string;
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
  helperText: string;
}) {
  const known = value === ANY || choices.some((c) => c.value === value);
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      helperText={helperText}
      fullWidth
      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
    >
      <MenuItem value={ANY}>Any</MenuItem>
      {known ? null : <MenuItem value={value}>{`${value} (no longer in the list)`}</MenuItem>}
      {choices.map((choice) => (
        <MenuItem key={choice.value} value={choice.value}>
          {choice.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

const locationChoices = (locations: readonly TNameAndAddressLocation[] | undefined): Choice[] =>
  (locations ?? []).flatMap((l) => (l.id ? [{ value: l.id, label: l.name ?? l.id }] : []));

/** Create or edit a product / carrier notification setting. */
export function NotificationSettingDialog({
  setting,
  onClose,
  onSaved,
}: {
  setting?: TNotificationSetting;
  onClose: () => void;
  onSaved: (setting: TNotificationSetting) => void;
}) {
  const form = useFormState<NotificationSettingFormValues, NotificationSettingField>(
    setting ? settingValuesOf(setting) : emptySettingValues(),
    validateSettingForm,
  );
  const dropdown = useDropdownInfo();
  const create = useCreateNotificationSetting();
  const update = useUpdateNotificationSetting();
  const { values, errors } = form;

  const submit = () => {
    if (!form.check()) return;
    const body = settingBody(values);
    const handlers = {
      onSuccess: onSaved,
      onError: (error: unknown) => form.fail(error, NOTIFICATION_SETTING_FIELDS),
    };
    if (setting?.id) update.mutate({ settingId: setting.id, body }, handlers);
    else create.mutate(body, handlers);
  };

  const text = (
    field: NotificationSettingField,
    label: string,
    help: string,
    extra: { multiline?: boolean; maxLength?: number; required?: boolean } = {},
  ) => (
    <TextField
      label={label}
      value={values[field]}
      onChange={(event) => form.set(field, event.target.value)}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? help}
      fullWidth
      autoComplete="off"
      required={extra.required}
      multiline={extra.multiline}
      minRows={extra.multiline ? 3 : undefined}
      slotProps={{ htmlInput: { maxLength: extra.maxLength ?? 2000 } }}
    />
  );

  const minutes = (field: NotificationSettingField, label: string, help: string) => (
    <TextField
      label={label}
      value={values[field]}
      onChange={(event) => form.set(field, event.target.value)}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? help}
      fullWidth
      autoComplete="off"
      slotProps={{
        htmlInput: { inputMode: 'numeric', maxLength: 6 },
      }}
    />
  );

  const products: Choice[] = (dropdown.data?.product_definitions ?? []).map((p) => ({
    value: p.product_name ?? '',
    label: p.product_name ?? '',
  }));
  const carriers: Choice[] = (dropdown.data?.carrier_definitions ?? []).map((c) => ({
    value: c.name ?? '',
    label: c.name ?? '',
  }));

  return (
    <FormDialog
      title={setting ? 'Edit notification setting' : 'Add notification setting'}
      onClose={onClose}
      onSubmit={submit}
      pending={create.isPending || update.isPending}
      error={form.formError}
      maxWidth="md"
    >
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            label="Notification type"
            value={values.notification_type}
            onChange={(event) =>
              form.set('notification_type', event.target.value as TNotificationSettingType)
            }
            helperText={
              values.notification_type === 'Summary'
                ? 'A summary of the shipments per lane and carrier, with their alarms'
                : 'When the e-mail is sent'
            }
            fullWidth
            required
          >
            {NOTIFICATION_SETTING_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {type}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Status"
            value={values.status}
            onChange={(event) => form.set('status', event.target.value as TNotificationStatus)}
            helperText={STATUS_HELP[values.status]}
            fullWidth
            required
          >
            {NOTIFICATION_STATUSES.map((status) => (
              <MenuItem key={status} value={status}>
                {status}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {values.notification_type === 'Summary' ? (
          <TextField
            select
            label="Schedule"
            value={values.schedule}
            onChange={(event) => form.set('schedule', event.target.value as TSummarySchedule)}
            error={Boolean(errors.schedule)}
            helperText={
              errors.schedule ??
              `${SCHEDULE_HELP[values.schedule]}, in your time zone (User settings). Shipments in ` +
                'alarm are linked; up to 10 PDFs (5 MB in all) are attached.'
            }
            fullWidth
            required
          >
            {SUMMARY_SCHEDULES.map((schedule) => (
              <MenuItem key={schedule} value={schedule}>
                {SCHEDULE_LABELS[schedule]}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <ChoiceSelect
            label="Product"
            value={values.product_name}
            choices={products}
            onChange={(value) => form.set('product_name', value)}
            helperText="Records of this product only"
          />
          <ChoiceSelect
            label="Carrier"
            value={values.carrier_name}
            choices={carriers}
            onChange={(value) => form.set('carrier_name', value)}
            helperText="Records of this carrier only"
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <ChoiceSelect
            label="Origin"
            value={values.origin}
            choices={locationChoices(dropdown.data?.origin_locations)}
            onChange={(value) => form.set('origin', value)}
            helperText="Shipments from this shipper only"
          />
          <ChoiceSelect
            label="Destination"
            value={values.destination}
            choices={locationChoices(dropdown.data?.destination_locations)}
            onChange={(value) => form.set('destination', value)}
            helperText="Shipments to this receiver only"
          />
        </Stack>
        {text('to_list', 'To', 'E-mail addresses, separated by commas or line breaks', {
          multiline: true,
          maxLength: 20_000,
        })}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {text('cc_list', 'Cc', 'Copied openly', { maxLength: 20_000 })}
          {text('bcc_list', 'Bcc', 'Copied without the others seeing', { maxLength: 20_000 })}
        </Stack>
        {values.notification_type === 'Summary' ? null : (
          <>
            {text('custom_template_subject', 'Subject', 'Empty: the standard subject', {
              maxLength: NOTIFICATION_SUBJECT_MAX_LENGTH,
            })}
            {text('custom_template_email', 'Message', 'Empty: the standard message', {
              multiline: true,
              maxLength: NOTIFICATION_TEMPLATE_MAX_LENGTH,
            })}
            <Typography variant="body2" color="text.secondary">
              Subject and message may use{' '}
              {NOTIFICATION_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}. Temperatures are in °C,
              times in UTC. One person named by several settings or subscriptions gets one e-mail
              per event.
            </Typography>
          </>
        )}
        {values.notification_type === 'Alarm' ? (
          <Stack spacing={2} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle2" sx={{ mb: 1, p: 0 }}>
              Escalation while the alarm is unacknowledged
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {minutes(
                'remind_after_minutes',
                'Remind after (minutes)',
                'To, Cc and Bcc are reminded; empty: no reminder',
              )}
              {minutes(
                'escalate_after_minutes',
                'Escalate after (minutes)',
                'The escalation list is told; empty: no escalation',
              )}
            </Stack>
            {text(
              'escalation_emails',
              'Escalate to',
              'E-mail addresses told at the escalation time. Reminders and escalations stop when ' +
                'the alarm is acknowledged or dismissed.',
              { maxLength: 20_000 },
            )}
          </Stack>
        ) : null}
        {text('comment', 'Comment', 'For your colleagues; not sent', {
          maxLength: NOTIFICATION_TEMPLATE_MAX_LENGTH,
        })}
      </Stack>
    </FormDialog>
  );
}
