import type { TRuleFunction, TRuleGroup, TUnaryRule } from '@coldtrace/contract';

/**
 * The notification rule engine (spec section 3, "Rule engine"; domain rules
 * section 5): a rule group combines unary rules with AND or OR; a unary rule
 * is a function taken as it is (IS) or negated (NOT); a function compares one
 * field of the record: `field` EQUALS `value`, `field` ANY_OF a list, or
 * ALWAYS_TRUE.
 *
 * Comparison: text is trimmed and compared ignoring case ("Insulin" equals
 * " insulin"); when either side is a number, both are compared as numbers
 * ("8" equals 8, "8.0" equals 8; "007" equals "7" only against a number);
 * booleans compare as their text ("true" equals true). A missing field, null
 * and the empty text equal one another. A field the record does not have
 * never matches EQUALS or ANY_OF.
 *
 * Defaults for what a stored rule leaves out: a group without an operator is
 * AND, a unary rule without an operator is IS, a function without an operator
 * is ALWAYS_TRUE. An empty AND holds (nothing to contradict it), an empty OR
 * does not (nothing to satisfy it).
 */

/** The value of one record field as rules see it. */
export type RuleFieldValue = string | number | boolean | null | undefined;

/** A record as rules see it: field name (spec spelling) to value. */
export type RuleSubject = Readonly<Record<string, RuleFieldValue>>;

type Scalar = string | number | boolean;

/** Text as rules compare it: trimmed, lower case; null and undefined are the empty text. */
export function ruleTextKey(value: RuleFieldValue): string {
  if (value === null || value === undefined) return '';
  return String(value).trim().toLowerCase();
}

function asNumber(value: RuleFieldValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : null;
}

/** Whether a field value equals a rule value (see the module comment). */
export function ruleValuesEqual(a: RuleFieldValue, b: RuleFieldValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') {
    const x = asNumber(a);
    const y = asNumber(b);
    return x !== null && x === y;
  }
  return ruleTextKey(a) === ruleTextKey(b);
}

/** Whether a function holds for `subject`. */
export function evaluateRuleFunction(fn: TRuleFunction | undefined, subject: RuleSubject): boolean {
  const operator = fn?.function_operator ?? 'ALWAYS_TRUE';
  if (operator === 'ALWAYS_TRUE') return true;
  const field = fn?.field;
  if (field === undefined || !Object.prototype.hasOwnProperty.call(subject, field)) return false;
  const fieldValue = subject[field];
  const value = fn?.value;
  if (operator === 'EQUALS') {
    if (Array.isArray(value)) return false;
    return ruleValuesEqual(fieldValue, value);
  }
  // ANY_OF: a list (a single value counts as a list of one).
  const list: readonly Scalar[] = Array.isArray(value)
    ? value
    : value === null || value === undefined
      ? []
      : [value];
  return list.some((v) => ruleValuesEqual(fieldValue, v));
}

/** Whether a unary rule holds: IS keeps the function's answer, NOT negates it. */
export function evaluateUnaryRule(rule: TUnaryRule, subject: RuleSubject): boolean {
  const holds = evaluateRuleFunction(rule.function, subject);
  return (rule.operator ?? 'IS') === 'NOT' ? !holds : holds;
}

/** Whether a rule group holds: AND of its children, or OR of them. */
export function evaluateRuleGroup(group: TRuleGroup, subject: RuleSubject): boolean {
  const children = group.unary_children ?? [];
  return (group.operator ?? 'AND') === 'OR'
    ? children.some((child) => evaluateUnaryRule(child, subject))
    : children.every((child) => evaluateUnaryRule(child, subject));
}

/** The same unary rule with its operator flipped (IS ↔ NOT). */
export function negateUnaryRule(rule: TUnaryRule): TUnaryRule {
  return { ...rule, operator: (rule.operator ?? 'IS') === 'NOT' ? 'IS' : 'NOT' };
}
