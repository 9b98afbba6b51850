import {
  DISPLAY_RULE_FIELDS,
  type TDataDisplayRulePatch,
  type TDataDisplayRuleUpload,
  type TDataDisplayRuleView,
  type TDegreesUnit,
} from '@coldtrace/contract';
import type { DisplayRuleField } from '../../lib/display-rule';
import type { FormErrors } from './form-fields';

/**
 * The Display rules tab's form (docs/decisions/data-display-rules.md): for whom
 * (a role, or everyone), the unit, the decimals and the fields not shown. Pure.
 */

/** The role select's value for the organization-wide rule. */
export const EVERYONE = '';
/** The unit select's value for "each user's own". */
export const OWN_UNIT = '';

export interface DisplayRuleFormValues {
  role_id: string;
  degrees_unit: TDegreesUnit | typeof OWN_UNIT;
  temperature_decimals: 0 | 1 | 2;
  hidden_fields: DisplayRuleField[];
}

/** Inputs the server may name in a failed save. */
export const DISPLAY_RULE_FORM_FIELDS = [
  'role_id',
  'degrees_unit',
  'temperature_decimals',
  'hidden_fields',
] as const;
export type DisplayRuleFormField = (typeof DISPLAY_RULE_FORM_FIELDS)[number];

export const DECIMAL_CHOICES = [0, 1, 2] as const;

/** A new rule: everyone, each user's unit, one decimal, every field shown. */
export function emptyRuleValues(): DisplayRuleFormValues {
  return { role_id: EVERYONE, degrees_unit: OWN_UNIT, temperature_decimals: 1, hidden_fields: [] };
}

function decimalsOf(value: number): 0 | 1 | 2 {
  return value === 0 || value === 2 ? value : 1;
}

export function ruleValuesOf(rule: TDataDisplayRuleView): DisplayRuleFormValues {
  return {
    role_id: rule.role_id ?? EVERYONE,
    degrees_unit: rule.degrees_unit ?? OWN_UNIT,
    temperature_decimals: decimalsOf(rule.temperature_decimals),
    hidden_fields: DISPLAY_RULE_FIELDS.filter((f) => rule.hidden_fields.includes(f)),
  };
}

/** Ticks or unticks a field, keeping the fields in their usual order. */
export function toggleHiddenField(
  fields: readonly DisplayRuleField[],
  field: DisplayRuleField,
  hidden: boolean,
): DisplayRuleField[] {
  const next = new Set(fields);
  if (hidden) next.add(field);
  else next.delete(field);
  return DISPLAY_RULE_FIELDS.filter((f) => next.has(f));
}

/** Nothing to check on the client: every choice is valid; the server answers a second rule of a role. */
export function validateRuleForm(): FormErrors<DisplayRuleFormField> {
  return {};
}

/** POST body: no role_id for everyone. */
export function ruleCreateBody(values: DisplayRuleFormValues): TDataDisplayRuleUpload {
  return {
    ...(values.role_id === EVERYONE ? {} : { role_id: values.role_id }),
    degrees_unit: values.degrees_unit === OWN_UNIT ? null : values.degrees_unit,
    temperature_decimals: values.temperature_decimals,
    hidden_fields: values.hidden_fields,
  };
}

/** PATCH body: the fields that changed (a rule's role does not change). */
export function rulePatchBody(
  rule: TDataDisplayRuleView,
  values: DisplayRuleFormValues,
): TDataDisplayRulePatch {
  const before = ruleValuesOf(rule);
  const unit = values.degrees_unit === OWN_UNIT ? null : values.degrees_unit;
  const sameHidden =
    before.hidden_fields.length === values.hidden_fields.length &&
    before.hidden_fields.every((f, i) => values.hidden_fields[i] === f);
  return {
    rule_id: rule.id,
    ...(before.degrees_unit === values.degrees_unit ? {} : { degrees_unit: unit }),
    ...(before.temperature_decimals === values.temperature_decimals
      ? {}
      : { temperature_decimals: values.temperature_decimals }),
    ...(sameHidden ? {} : { hidden_fields: values.hidden_fields }),
  };
}

/** `Everyone` or the role's name. */
export function ruleAudience(rule: Pick<TDataDisplayRuleView, 'role_id' | 'role_name'>): string {
  return rule.role_id === null ? 'Everyone' : (rule.role_name ?? 'A role');
}

/** `°C`, `°F` or `Each user's own`. */
export function ruleUnitLabel(unit: TDegreesUnit | null): string {
  return unit === null ? "Each user's own" : `°${unit}`;
}
