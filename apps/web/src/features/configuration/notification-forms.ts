import {
  MAX_ESCALATION_MINUTES,
  type TFunctionOperator,
  type TNotificationRule,
  type TNotificationSetting,
  type TNotificationSettingCreate,
  type TNotificationSettingType,
  type TNotificationStatus,
  type TSummarySchedule,
  type TRuleCombinator,
  type TRuleField,
  type TUnaryOperator,
} from '@coldtrace/contract';
import type { FormErrors } from './form-fields';

/**
 * The notification setting and rule forms of the Configuration page's
 * Notifications tab: values as typed, client-side checks, and the call bodies.
 * Address lists are typed as text, one or more addresses separated by commas,
 * semicolons, spaces or line breaks.
 */

// ---------------------------------------------------------------- settings

export interface NotificationSettingFormValues {
  notification_type: TNotificationSettingType;
  status: TNotificationStatus;
  /** Summary settings (issue 15): DAILY or WEEKLY; empty until chosen. */
  schedule: TSummarySchedule | '';
  product_name: string;
  carrier_name: string;
  origin: string;
  destination: string;
  to_list: string;
  cc_list: string;
  bcc_list: string;
  custom_template_subject: string;
  custom_template_email: string;
  comment: string;
  /** Escalation (issue 14), Alarm settings only: whole minutes as typed, empty for none. */
  remind_after_minutes: string;
  escalate_after_minutes: string;
  escalation_emails: string;
}
export type NotificationSettingField = keyof NotificationSettingFormValues;

export const NOTIFICATION_SETTING_FIELDS: readonly NotificationSettingField[] = [
  'notification_type',
  'status',
  'schedule',
  'product_name',
  'carrier_name',
  'origin',
  'destination',
  'to_list',
  'cc_list',
  'bcc_list',
  'custom_template_subject',
  'custom_template_email',
  'comment',
  'remind_after_minutes',
  'escalate_after_minutes',
  'escalation_emails',
];

const ADDRESS = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** Whether a typed address looks like an e-mail address (the server checks it again). */
export const isEmailAddress = (text: string): boolean => ADDRESS.test(text);

/** The addresses of a typed list (empty entries dropped). */
export function parseAddressList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

export function emptySettingValues(): NotificationSettingFormValues {
  return {
    notification_type: 'Alarm',
    status: 'Enabled',
    schedule: '',
    product_name: '',
    carrier_name: '',
    origin: '',
    destination: '',
    to_list: '',
    cc_list: '',
    bcc_list: '',
    custom_template_subject: '',
    custom_template_email: '',
    comment: '',
    remind_after_minutes: '',
    escalate_after_minutes: '',
    escalation_emails: '',
  };
}

export function settingValuesOf(setting: TNotificationSetting): NotificationSettingFormValues {
  return {
    notification_type: setting.notification_type,
    status: setting.status,
    schedule: setting.schedule ?? '',
    product_name: setting.product_name ?? '',
    carrier_name: setting.carrier_name ?? '',
    origin: setting.origin ?? '',
    destination: setting.destination ?? '',
    to_list: (setting.to_list ?? []).join(', '),
    cc_list: (setting.cc_list ?? []).join(', '),
    bcc_list: (setting.bcc_list ?? []).join(', '),
    custom_template_subject: setting.custom_template_subject ?? '',
    custom_template_email: setting.custom_template_email ?? '',
    comment: setting.comment ?? '',
    remind_after_minutes: minutesText(setting.remind_after_minutes),
    escalate_after_minutes: minutesText(setting.escalate_after_minutes),
    escalation_emails: (setting.escalation_emails ?? []).join(', '),
  };
}

const minutesText = (minutes: number | null | undefined) =>
  minutes === null || minutes === undefined ? '' : String(minutes);

/** A typed delay: null when empty, NaN when not a whole number. */
function minutesOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * The escalation fields (the server checks the same, 400 naming the field):
 * whole minutes from 1 to a week, escalation with its addresses and after
 * the reminder. Only Alarm settings escalate; other types send none.
 */
function validateEscalation(
  values: NotificationSettingFormValues,
  errors: FormErrors<NotificationSettingField>,
): void {
  if (values.notification_type !== 'Alarm') return;
  const remind = minutesOf(values.remind_after_minutes);
  const escalate = minutesOf(values.escalate_after_minutes);
  for (const [field, value] of [
    ['remind_after_minutes', remind],
    ['escalate_after_minutes', escalate],
  ] as const) {
    if (value !== null && !(value >= 1 && value <= MAX_ESCALATION_MINUTES)) {
      errors[field] = `Enter whole minutes from 1 to ${MAX_ESCALATION_MINUTES} (a week)`;
    }
  }
  const emails = parseAddressList(values.escalation_emails);
  const bad = emails.find((a) => !isEmailAddress(a));
  if (bad !== undefined) errors.escalation_emails = `'${bad}' is not an e-mail address`;
  else if (escalate !== null && emails.length === 0)
    errors.escalation_emails = 'Add at least one address to escalate to';
  if (escalate === null && emails.length > 0 && !errors.escalate_after_minutes)
    errors.escalate_after_minutes = 'Say after how many minutes these addresses are told';
  if (
    remind !== null &&
    escalate !== null &&
    !errors.remind_after_minutes &&
    !errors.escalate_after_minutes &&
    escalate <= remind
  ) {
    errors.escalate_after_minutes = `Must be later than the reminder (${remind} minutes)`;
  }
}

/** The settings table's Escalation cell: 'Remind after 30 min; escalate after 120 min to a@x'. */
export function escalationText(setting: TNotificationSetting): string {
  const parts = [
    setting.remind_after_minutes ? `Remind after ${setting.remind_after_minutes} min` : null,
    setting.escalate_after_minutes
      ? `escalate after ${setting.escalate_after_minutes} min to ${(setting.escalation_emails ?? []).join(', ')}`
      : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return 'None';
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function validateSettingForm(
  values: NotificationSettingFormValues,
): FormErrors<NotificationSettingField> {
  const errors: FormErrors<NotificationSettingField> = {};
  for (const field of ['to_list', 'cc_list', 'bcc_list'] as const) {
    const bad = parseAddressList(values[field]).find((a) => !isEmailAddress(a));
    if (bad !== undefined) errors[field] = `'${bad}' is not an e-mail address`;
  }
  const count = (['to_list', 'cc_list', 'bcc_list'] as const).reduce(
    (n, field) => n + parseAddressList(values[field]).length,
    0,
  );
  if (values.status !== 'Disabled' && count === 0 && !errors.to_list) {
    errors.to_list = 'Add at least one address (or set the status to Disabled)';
  }
  validateEscalation(values, errors);
  if (values.notification_type === 'Summary' && values.schedule === '')
    errors.schedule = 'Choose daily or weekly';
  return errors;
}

const orNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());

export function settingBody(values: NotificationSettingFormValues): TNotificationSettingCreate {
  return {
    notification_type: values.notification_type,
    status: values.status,
    schedule:
      values.notification_type === 'Summary' && values.schedule !== '' ? values.schedule : null,
    product_name: orNull(values.product_name),
    carrier_name: orNull(values.carrier_name),
    origin: orNull(values.origin),
    destination: orNull(values.destination),
    to_list: parseAddressList(values.to_list),
    cc_list: parseAddressList(values.cc_list),
    bcc_list: parseAddressList(values.bcc_list),
    custom_template_subject: orNull(values.custom_template_subject),
    custom_template_email: orNull(values.custom_template_email),
    comment: orNull(values.comment),
    ...(values.notification_type === 'Alarm'
      ? {
          remind_after_minutes: minutesOf(values.remind_after_minutes),
          escalate_after_minutes: minutesOf(values.escalate_after_minutes),
          escalation_emails: parseAddressList(values.escalation_emails),
        }
      : { remind_after_minutes: null, escalate_after_minutes: null, escalation_emails: [] }),
  };
}

// ---------------------------------------------------------------- rules

export const RULE_FIELD_LABELS: Record<TRuleField, string> = {
  product_designation: 'Product',
  carrier: 'Carrier',
  program_name: 'Program name',
  primary_reference: 'Primary reference',
  secondary_reference: 'Secondary reference',
  shipping_reference: 'Shipping reference',
  po_number: 'PO number',
  tag_serial_number: 'Tag serial number',
  tag_type: 'Tag type',
  shipper_name_address: 'Shipper (location id)',
  receiver_name_address: 'Receiver (location id)',
  status: 'Alarm status',
  trip_status: 'Trip status',
  high_threshold: 'High threshold (°C)',
  low_threshold: 'Low threshold (°C)',
};

export interface RuleConditionValues {
  operator: TUnaryOperator;
  field: TRuleField;
  function_operator: TFunctionOperator;
  /** EQUALS: the value; ANY_OF: values separated by commas. */
  value: string;
}

export interface NotificationRuleFormValues {
  name: string;
  users: string[];
  combinator: TRuleCombinator;
  conditions: RuleConditionValues[];
}
export type NotificationRuleField = 'name' | 'users' | 'combinator' | 'conditions';

export const NOTIFICATION_RULE_FIELDS: readonly NotificationRuleField[] = [
  'name',
  'users',
  'combinator',
  'conditions',
];

export const emptyCondition = (): RuleConditionValues => ({
  operator: 'IS',
  field: 'product_designation',
  function_operator: 'EQUALS',
  value: '',
});

export function ruleValuesOf(rule: TNotificationRule): NotificationRuleFormValues {
  return {
    name: rule.name,
    users: rule.users,
    combinator: rule.root_rule.operator ?? 'AND',
    conditions: (rule.root_rule.unary_children ?? []).map((child) => {
      const value = child.function?.value;
      return {
        operator: child.operator ?? 'IS',
        field: (child.function?.field ?? 'product_designation') as TRuleField,
        function_operator: child.function?.function_operator ?? 'ALWAYS_TRUE',
        value: Array.isArray(value) ? value.join(', ') : value == null ? '' : String(value),
      };
    }),
  };
}

const listOf = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

export function validateRuleForm(
  values: NotificationRuleFormValues,
): FormErrors<NotificationRuleField> {
  const errors: FormErrors<NotificationRuleField> = {};
  if (values.name.trim() === '') errors.name = 'A name is required';
  if (values.users.length === 0) errors.users = 'Choose at least one person to notify';
  const incomplete = values.conditions.findIndex(
    (c) =>
      (c.function_operator === 'EQUALS' && c.value.trim() === '') ||
      (c.function_operator === 'ANY_OF' && listOf(c.value).length === 0),
  );
  if (incomplete >= 0) errors.conditions = `Condition ${incomplete + 1} needs a value`;
  return errors;
}

export function ruleBody(values: NotificationRuleFormValues) {
  return {
    name: values.name.trim(),
    users: values.users,
    root_rule: {
      operator: values.combinator,
      unary_children: values.conditions.map((c) => ({
        operator: c.operator,
        function:
          c.function_operator === 'ALWAYS_TRUE'
            ? { function_operator: c.function_operator }
            : {
                field: c.field,
                function_operator: c.function_operator,
                value: c.function_operator === 'ANY_OF' ? listOf(c.value) : c.value.trim(),
              },
      })),
    },
  };
}

/** A rule's condition in words, e.g. "Product is Insulin and Carrier is not any of DHL, UPS". */
export function describeRule(rule: TNotificationRule): string {
  const children = rule.root_rule.unary_children ?? [];
  if (children.length === 0) {
    return rule.root_rule.operator === 'OR' ? 'Never (no condition)' : 'Every record';
  }
  const parts = children.map((child) => {
    const fn = child.function;
    const not = child.operator === 'NOT';
    if (!fn || (fn.function_operator ?? 'ALWAYS_TRUE') === 'ALWAYS_TRUE') {
      return not ? 'never' : 'always';
    }
    const label = RULE_FIELD_LABELS[fn.field as TRuleField] ?? fn.field ?? '?';
    const value = Array.isArray(fn.value) ? fn.value.join(', ') : String(fn.value ?? '');
    const verb = fn.function_operator === 'ANY_OF' ? 'any of ' : '';
    return `${label} is ${not ? 'not ' : ''}${verb}${value}`;
  });
  return parts.join(rule.root_rule.operator === 'OR' ? ' or ' : ' and ');
}
