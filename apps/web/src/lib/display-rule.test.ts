import { celsiusToFahrenheit, formatTemperature } from '@coldtrace/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { getAppSettings, resetAppSettings, setAppSettings } from './app-settings';
import {
  describeHiddenFields,
  formatTemperatureWith,
  isFieldHidden,
  recordDisplay,
  toDisplayUnitWith,
} from './display-rule';

const rule = (
  degrees_unit: 'C' | 'F' | null,
  temperature_decimals: number,
  hidden_fields: string[] = [],
) => ({ degrees_unit, temperature_decimals, hidden_fields }) as Parameters<typeof recordDisplay>[1];

describe('recordDisplay [FEAT-DISPLAY-RULES, SPEC-9.1]', () => {
  it('without a rule: the user unit, one decimal, every field', () => {
    expect(recordDisplay('F', null)).toEqual({
      degreesUnit: 'F',
      temperatureDecimals: 1,
      hiddenFields: [],
    });
  });

  it("a rule's unit overrides the user's; null keeps the user's", () => {
    expect(recordDisplay('C', rule('F', 2)).degreesUnit).toBe('F');
    expect(recordDisplay('F', rule('C', 2)).degreesUnit).toBe('C');
    expect(recordDisplay('F', rule(null, 0)).degreesUnit).toBe('F');
    expect(recordDisplay('F', rule(null, 0)).temperatureDecimals).toBe(0);
  });

  it('keeps the hidden fields in their usual order and ignores out-of-range decimals', () => {
    const display = recordDisplay('C', rule(null, 7, ['carrier', 'primary_reference']));
    expect(display.hiddenFields).toEqual(['primary_reference', 'carrier']);
    expect(display.temperatureDecimals).toBe(1);
    expect(isFieldHidden(display, 'carrier')).toBe(true);
    expect(isFieldHidden(display, 'po_number')).toBe(false);
  });
});

describe('formatTemperatureWith [FEAT-DISPLAY-RULES, SPEC-9.1]', () => {
  it('gives what the domain formatter gives with one decimal', () => {
    for (const c of [-20.25, -0.05, 0, 2.25, 4.44, 8, 36.6, 100.01]) {
      expect(formatTemperatureWith(c, 'C', 1)).toBe(formatTemperature(c, 'C'));
      expect(formatTemperatureWith(c, 'F', 1)).toBe(formatTemperature(c, 'F'));
      expect(toDisplayUnitWith(c, 'F', 1)).toBe(celsiusToFahrenheit(c));
    }
  });

  it('rounds the exact value half away from zero with 0 or 2 decimals', () => {
    expect(formatTemperatureWith(8, 'F', 2)).toBe('46.40 °F');
    // 2.25 °C is exactly 36.05 °F.
    expect(formatTemperatureWith(2.25, 'F', 2)).toBe('36.05 °F');
    expect(formatTemperatureWith(2.25, 'C', 2)).toBe('2.25 °C');
    expect(formatTemperatureWith(2.25, 'C', 0)).toBe('2 °C');
    expect(formatTemperatureWith(2.5, 'C', 0)).toBe('3 °C');
    expect(formatTemperatureWith(-2.5, 'C', 0)).toBe('-3 °C');
    // 0.25 °C is 32.45 °F: 32 with no decimal (no double rounding through 32.5).
    expect(formatTemperatureWith(0.25, 'F', 0)).toBe('32 °F');
    // 2.5 °C is exactly 36.5 °F: half away from zero.
    expect(formatTemperatureWith(2.5, 'F', 0)).toBe('37 °F');
    // 0.01 °C is 32.018 °F.
    expect(formatTemperatureWith(0.01, 'F', 2)).toBe('32.02 °F');
  });

  it('shows a dash for a missing value', () => {
    expect(formatTemperatureWith(null, 'C', 2)).toBe('—');
    expect(formatTemperatureWith(Number.NaN, 'F', 0)).toBe('—');
  });
});

describe('describeHiddenFields [FEAT-DISPLAY-RULES, SPEC-9.1]', () => {
  it('names the fields in words, in their usual order', () => {
    expect(describeHiddenFields([])).toBe('None');
    expect(describeHiddenFields(['po_number', 'primary_reference'])).toBe(
      'Primary reference, PO number',
    );
  });
});

describe('app settings with a display rule [FEAT-DISPLAY-RULES, SPEC-9.1]', () => {
  afterEach(() => resetAppSettings());

  it('tells listeners only when something changed, hidden fields included', () => {
    const base = { degreesUnit: 'C' as const, timeZone: 'UTC', temperatureDecimals: 1 };
    setAppSettings({ ...base, hiddenFields: ['carrier'] });
    const first = getAppSettings();
    setAppSettings({ ...base, hiddenFields: ['carrier'] });
    expect(getAppSettings()).toBe(first);
    setAppSettings({ ...base, hiddenFields: [] });
    expect(getAppSettings().hiddenFields).toEqual([]);
    setAppSettings({ ...base, temperatureDecimals: 2, hiddenFields: [] });
    expect(getAppSettings().temperatureDecimals).toBe(2);
  });
});
