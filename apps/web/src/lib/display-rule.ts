import {
  DISPLAY_RULE_FIELDS,
  type TDataDisplayRuleView,
  type TDegreesUnit,
} from '@coldtrace/contract';
import {
  MISSING_VALUE,
  divideRoundingHalfAwayFromZero,
  fromScaledInteger,
  powerOfTen,
  roundHalfAwayFromZero,
  TEMPERATURE_DISPLAY_DECIMALS,
  toExactDecimal,
} from '@coldtrace/domain';

/**
 * Data display rules in the web app (docs/decisions/data-display-rules.md):
 * the rule that applies to the signed-in user (GET /api/data-display-rules/,
 * `effective`) decides the unit (a rule's unit overrides the user's own), the
 * decimals of temperatures and the record fields not shown. Pure helpers.
 */

export type DisplayRuleField = (typeof DISPLAY_RULE_FIELDS)[number];

/** How record data is shown to the user: their settings with the rule applied. */
export interface RecordDisplay {
  readonly degreesUnit: TDegreesUnit;
  readonly temperatureDecimals: number;
  /** Record fields not shown, in DISPLAY_RULE_FIELDS order. */
  readonly hiddenFields: readonly DisplayRuleField[];
}

/** Readable names of the fields a rule may hide (the admin screen's checkboxes). */
export const DISPLAY_RULE_FIELD_LABELS: Record<DisplayRuleField, string> = {
  primary_reference: 'Primary reference',
  secondary_reference: 'Secondary reference',
  shipping_reference: 'Shipping reference',
  program_name: 'Program',
  po_number: 'PO number',
  carrier: 'Carrier',
  product_designation: 'Product',
  shipper_name_address: 'Shipper',
  receiver_name_address: 'Receiver',
  last_latitude: 'Last latitude',
  last_longitude: 'Last longitude',
  alarm_recipients: 'Alarm recipients',
};

/** The user's own unit with the rule applied (no rule: one decimal, every field shown). */
export function recordDisplay(
  userUnit: TDegreesUnit,
  rule: Pick<
    TDataDisplayRuleView,
    'degrees_unit' | 'temperature_decimals' | 'hidden_fields'
  > | null,
): RecordDisplay {
  if (!rule) {
    return {
      degreesUnit: userUnit,
      temperatureDecimals: TEMPERATURE_DISPLAY_DECIMALS,
      hiddenFields: [],
    };
  }
  const decimals = rule.temperature_decimals;
  return {
    degreesUnit: rule.degrees_unit ?? userUnit,
    temperatureDecimals:
      Number.isInteger(decimals) && decimals >= 0 && decimals <= 2
        ? decimals
        : TEMPERATURE_DISPLAY_DECIMALS,
    hiddenFields: DISPLAY_RULE_FIELDS.filter((field) => rule.hidden_fields.includes(field)),
  };
}

/** True when the rule hides the field. */
export function isFieldHidden(
  display: Pick<RecordDisplay, 'hiddenFields'>,
  field: DisplayRuleField,
): boolean {
  return display.hiddenFields.includes(field);
}

/**
 * A Celsius value in `unit`, rounded half away from zero to `decimals`, computed
 * exactly on the decimal the value shows (one decimal gives what
 * `toDisplayUnit` of the domain gives).
 */
export function toDisplayUnitWith(celsius: number, unit: TDegreesUnit, decimals: number): number {
  if (!Number.isFinite(celsius)) return celsius;
  if (unit === 'C') return roundHalfAwayFromZero(celsius, decimals);
  const { units, scale } = toExactDecimal(celsius);
  // F * 10^d = (C * 18 + 320) * 10^d / 10, with C = units / 10^scale.
  const numerator = (units * 18n + 320n * powerOfTen(scale)) * powerOfTen(decimals);
  return fromScaledInteger(
    divideRoundingHalfAwayFromZero(numerator, 10n * powerOfTen(scale)),
    decimals,
  );
}

/** `4.5 °C`, `40.10 °F`, `5 °C`: a temperature with the rule's decimals; `—` when missing. */
export function formatTemperatureWith(
  celsius: number | null | undefined,
  unit: TDegreesUnit,
  decimals: number = TEMPERATURE_DISPLAY_DECIMALS,
): string {
  if (celsius == null || !Number.isFinite(celsius)) return MISSING_VALUE;
  return `${toDisplayUnitWith(celsius, unit, decimals).toFixed(decimals)} °${unit}`;
}

/** `Primary reference, Carrier`, or `None`: the hidden fields in words (the Display rules list). */
export function describeHiddenFields(fields: readonly string[]): string {
  const labels = DISPLAY_RULE_FIELDS.filter((field) => fields.includes(field)).map(
    (field) => DISPLAY_RULE_FIELD_LABELS[field],
  );
  return labels.length === 0 ? 'None' : labels.join(', ');
}
