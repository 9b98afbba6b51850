import {
  CONFIG_DURATION_MAX_SECONDS,
  CONFIG_MAX_CONSECUTIVE_EXCURSIONS,
  CONFIG_NAME_MAX_LENGTH,
  CONFIG_TEMPERATURE_MAX,
  CONFIG_TEMPERATURE_MIN,
  type TDegreesUnit,
  type TProductDefinition,
  type TProductDefinitionCreate,
  type TProductDefinitionUpdate,
} from '@coldtrace/contract';
import {
  celsiusToFahrenheit,
  fromDisplayUnit,
  parseDurationString,
  toDisplayUnit,
} from '@coldtrace/domain';
import { formatNumber, parseIntegerInput, parseNumberInput, type FormErrors } from './form-fields';

/**
 * The product form: what the dialog holds (text as typed, thresholds in the
 * user's unit), its checks (mirroring the server's: docs/decisions/
 * configuration.md, "Validation") and the bodies it sends (thresholds in °C).
 */

export const PRODUCT_FIELDS = [
  'product_name',
  'high_threshold',
  'low_threshold',
  'num_consecutive_excursions',
  'cumulative_high_threshold',
  'cumulative_low_threshold',
  'cumulative_duration_high',
  'cumulative_duration_low',
] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];
export type ProductFormValues = Record<ProductField, string>;

const TEMPERATURE_FIELDS = [
  'high_threshold',
  'low_threshold',
  'cumulative_high_threshold',
  'cumulative_low_threshold',
] as const satisfies readonly ProductField[];
type TemperatureField = (typeof TEMPERATURE_FIELDS)[number];

const DURATION_FIELDS = [
  'cumulative_duration_high',
  'cumulative_duration_low',
] as const satisfies readonly ProductField[];

/** Example shown under a duration input. */
export const DURATION_HELP = 'Format [DD ]HH:MM:SS, e.g. 01:30:00 or 1 12:00:00';

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  product_name: '',
  high_threshold: '',
  low_threshold: '',
  num_consecutive_excursions: '',
  cumulative_high_threshold: '',
  cumulative_low_threshold: '',
  cumulative_duration_high: '',
  cumulative_duration_low: '',
};

function temperatureText(celsius: number | null | undefined, unit: TDegreesUnit): string {
  return celsius == null ? '' : String(toDisplayUnit(celsius, unit));
}

/** The form filled from a stored product, thresholds in the user's unit (one decimal). */
export function productFormFrom(
  product: TProductDefinition,
  unit: TDegreesUnit,
): ProductFormValues {
  return {
    product_name: product.product_name ?? '',
    high_threshold: temperatureText(product.high_threshold, unit),
    low_threshold: temperatureText(product.low_threshold, unit),
    num_consecutive_excursions:
      product.num_consecutive_excursions == null ? '' : String(product.num_consecutive_excursions),
    cumulative_high_threshold: temperatureText(product.cumulative_high_threshold, unit),
    cumulative_low_threshold: temperatureText(product.cumulative_low_threshold, unit),
    cumulative_duration_high: product.cumulative_duration_high ?? '',
    cumulative_duration_low: product.cumulative_duration_low ?? '',
  };
}

/** The server's bounds, in the user's unit: `-273.15 °C to 1000 °C`, `-459.67 °F to 1832 °F`. */
export function temperatureBounds(unit: TDegreesUnit): string {
  if (unit === 'C') return `${CONFIG_TEMPERATURE_MIN} °C to ${CONFIG_TEMPERATURE_MAX} °C`;
  // Exact: -273.15 * 1.8 + 32 = -459.67 (not the display rounding).
  const low = Math.round((CONFIG_TEMPERATURE_MIN * 1.8 + 32) * 100) / 100;
  return `${low} °F to ${celsiusToFahrenheit(CONFIG_TEMPERATURE_MAX)} °F`;
}

/** A temperature input in °C: undefined when blank, null when not a number. */
function celsiusOf(text: string, unit: TDegreesUnit): number | null | undefined {
  const value = parseNumberInput(text);
  return value == null ? value : fromDisplayUnit(value, unit);
}

/** Every problem of the form; an empty object when it may be sent. */
export function validateProductForm(
  values: ProductFormValues,
  unit: TDegreesUnit,
): FormErrors<ProductField> {
  const errors: FormErrors<ProductField> = {};
  const name = values.product_name.trim();
  if (name === '') errors.product_name = 'Enter a product name';
  else if (name.length > CONFIG_NAME_MAX_LENGTH) {
    errors.product_name = `Use at most ${CONFIG_NAME_MAX_LENGTH} characters`;
  }

  const celsius: Partial<Record<TemperatureField, number>> = {};
  for (const field of TEMPERATURE_FIELDS) {
    const value = celsiusOf(values[field], unit);
    if (value === null) {
      errors[field] = `Enter a number in °${unit}, e.g. 8 or -2.5`;
    } else if (value !== undefined) {
      if (value < CONFIG_TEMPERATURE_MIN || value > CONFIG_TEMPERATURE_MAX) {
        errors[field] = `Enter a temperature from ${temperatureBounds(unit)}`;
      } else {
        celsius[field] = value;
      }
    }
  }
  const pairs = [
    ['low_threshold', 'high_threshold', 'high threshold'],
    ['cumulative_low_threshold', 'cumulative_high_threshold', 'cumulative high threshold'],
  ] as const;
  for (const [lowField, highField, highName] of pairs) {
    const low = celsius[lowField];
    const high = celsius[highField];
    if (low !== undefined && high !== undefined && low > high) {
      errors[lowField] = `Must not be above the ${highName} (${values[highField].trim()} °${unit})`;
    }
  }

  const excursions = parseIntegerInput(values.num_consecutive_excursions);
  if (
    excursions === null ||
    (excursions !== undefined && (excursions < 1 || excursions > CONFIG_MAX_CONSECUTIVE_EXCURSIONS))
  ) {
    errors.num_consecutive_excursions = `Enter a whole number from 1 to ${formatNumber(
      CONFIG_MAX_CONSECUTIVE_EXCURSIONS,
    )}`;
  }

  for (const field of DURATION_FIELDS) {
    const text = values[field].trim();
    if (text === '') continue;
    const seconds = parseDurationString(text);
    if (seconds === null) errors[field] = `Use [DD ]HH:MM:SS, e.g. 01:30:00 or 1 12:00:00`;
    else if (seconds > CONFIG_DURATION_MAX_SECONDS) errors[field] = 'Use at most 3650 days';
  }
  return errors;
}

/** The value of one field as the server takes it: °C, whole numbers, trimmed text, null for blank. */
function fieldValue(field: ProductField, text: string, unit: TDegreesUnit): string | number | null {
  const trimmed = text.trim();
  if (field === 'product_name') return trimmed;
  if (trimmed === '') return null;
  if ((TEMPERATURE_FIELDS as readonly string[]).includes(field)) {
    return celsiusOf(trimmed, unit) ?? null;
  }
  if (field === 'num_consecutive_excursions') return parseIntegerInput(trimmed) ?? null;
  return trimmed;
}

/** Body of the creation call (call only with a valid form). */
export function productCreateBody(
  values: ProductFormValues,
  unit: TDegreesUnit,
): TProductDefinitionCreate {
  const body: Record<string, string | number | null> = {};
  for (const field of PRODUCT_FIELDS) body[field] = fieldValue(field, values[field], unit);
  return body as TProductDefinitionCreate;
}

/**
 * Body of the edit call: only the fields the user changed, so a threshold
 * shown rounded (one decimal, or converted to °F) and left alone keeps its
 * stored value. A cleared field is sent as null.
 */
export function productUpdateBody(
  values: ProductFormValues,
  initial: ProductFormValues,
  unit: TDegreesUnit,
): TProductDefinitionUpdate {
  const body: Record<string, string | number | null> = {};
  for (const field of PRODUCT_FIELDS) {
    if (values[field].trim() === initial[field].trim()) continue;
    body[field] = fieldValue(field, values[field], unit);
  }
  return body as TProductDefinitionUpdate;
}
