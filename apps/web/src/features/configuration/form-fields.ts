import { errorMessage } from '../../components/error-handler';
import { isApiError } from '../../lib/api-error';

/**
 * Small pure helpers shared by the configuration forms: reading what was typed
 * into a text input, and putting the server's 400 `fields` under the inputs.
 *
 * Every form of this feature names its inputs after the body fields of the
 * call it makes (`product_name`, `low_threshold`, ...), so a field the server
 * names maps to an input without a table.
 */

/** Errors of a form, one sentence per input. */
export type FormErrors<K extends string> = Partial<Record<K, string>>;

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A number typed into a text input: `undefined` when the input is blank,
 * `null` when it is not a plain decimal number (`1e3`, `12abc`, `--1`),
 * otherwise the number. Spaces around it are ignored.
 */
export function parseNumberInput(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!NUMBER.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** A whole number typed into a text input (`undefined` blank, `null` not a whole number). */
export function parseIntegerInput(text: string): number | null | undefined {
  const value = parseNumberInput(text);
  if (value == null) return value;
  return Number.isSafeInteger(value) ? value : null;
}

/** `1234.5` -> `1,234.5` (en-US, at most `decimals` decimals). */
export function formatNumber(value: number, decimals = 2): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: decimals });
}

/**
 * The server's sentence for a field, shown under an input: the leading
 * "Field 'x': " is dropped (the input already says which field) and the
 * first letter is capitalised.
 */
export function cleanServerMessage(message: string): string {
  const text = message
    .replace(/^Field '[^']*':\s*/, '')
    .replace(/^Field '[^']*'\s+/, 'This value ')
    .trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a failed save shows: messages under the inputs, and a message for the whole form. */
export interface SaveFailure<K extends string> {
  fields: FormErrors<K>;
  /** Shown above the dialog's buttons; null when every problem sits under an input. */
  message: string | null;
}

/**
 * Splits a failed save into messages under the inputs (the `fields` of an
 * `ApiError`, e.g. a 400 VALIDATION_ERROR or a 409 CONFLICT naming `name`)
 * and one message for the form (anything else: a 403, a 500, a field no input
 * shows). `prefix` is removed from the server's field names first
 * (`geo_fence_settings.`).
 */
export function saveFailure<K extends string>(
  error: unknown,
  keys: readonly K[],
  prefix = '',
): SaveFailure<K> {
  const fields: FormErrors<K> = {};
  if (!isApiError(error)) return { fields, message: errorMessage(error) };
  const unmatched: string[] = [];
  for (const [name, reason] of Object.entries(error.fields)) {
    const key = name.startsWith(prefix) ? name.slice(prefix.length) : name;
    if ((keys as readonly string[]).includes(key)) {
      fields[key as K] ??= cleanServerMessage(reason);
    } else {
      unmatched.push(reason);
    }
  }
  const matchedAny = Object.keys(fields).length > 0;
  if (!matchedAny) return { fields, message: error.message || errorMessage(error) };
  return { fields, message: unmatched.length > 0 ? unmatched.join(' ') : null };
}

/** True when a form has no error at all. */
export function isValid<K extends string>(errors: FormErrors<K>): boolean {
  return Object.values(errors).every((message) => message === undefined);
}
