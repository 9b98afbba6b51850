import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { validateCarrierForm } from './carrier-form';
import {
  cleanServerMessage,
  isValid,
  parseIntegerInput,
  parseNumberInput,
  saveFailure,
} from './form-fields';

describe('number inputs [SPEC-7.7, FEAT-INPUT-SAFETY]', () => {
  it('reads plain decimal numbers, blank as undefined and anything else as null', () => {
    expect(parseNumberInput('')).toBeUndefined();
    expect(parseNumberInput('   ')).toBeUndefined();
    expect(parseNumberInput(' 8 ')).toBe(8);
    expect(parseNumberInput('-2.5')).toBe(-2.5);
    expect(parseNumberInput('+3')).toBe(3);
    expect(parseNumberInput('.5')).toBe(0.5);
    expect(parseNumberInput('4.')).toBe(4);
    for (const text of ['1e3', '12abc', '--1', '1,5', 'Infinity', 'NaN', '0x10', '-']) {
      expect(parseNumberInput(text)).toBeNull();
    }
  });

  it('reads whole numbers only as integers', () => {
    expect(parseIntegerInput('3')).toBe(3);
    expect(parseIntegerInput('3.0')).toBe(3);
    expect(parseIntegerInput('3.5')).toBeNull();
    expect(parseIntegerInput('')).toBeUndefined();
  });
});

describe('server errors under the inputs [SPEC-7.7, FEAT-INPUT-SAFETY]', () => {
  it('drops the "Field \'x\':" prefix and capitalises', () => {
    expect(cleanServerMessage("Field 'latitude': Too big: expected number to be <=90")).toBe(
      'Too big: expected number to be <=90',
    );
    expect(
      cleanServerMessage("Field 'low_threshold' (5) must not be above high_threshold (2)"),
    ).toBe('This value (5) must not be above high_threshold (2)');
    expect(cleanServerMessage("A carrier named 'X' already exists")).toBe(
      "A carrier named 'X' already exists",
    );
  });

  it('puts fields the form shows under their inputs and the rest above the buttons', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'Invalid request body', {
      low_threshold: "Field 'low_threshold': must not be above high_threshold",
      organization: 'Something else',
    });
    expect(saveFailure(error, ['low_threshold', 'high_threshold'] as const)).toEqual({
      fields: { low_threshold: 'Must not be above high_threshold' },
      message: 'Something else',
    });
  });

  it('removes a prefix such as geo_fence_settings.', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'Invalid', {
      'geo_fence_settings.arrival_radius': "Field 'geo_fence_settings.arrival_radius': too far",
    });
    expect(saveFailure(error, ['arrival_radius'] as const, 'geo_fence_settings.').fields).toEqual({
      arrival_radius: 'Too far',
    });
  });

  it('uses the message for the whole form when no field matches or it is not an API error', () => {
    const forbidden = new ApiError(403, 'FORBIDDEN', 'You do not have permission to do this.');
    expect(saveFailure(forbidden, ['name'] as const)).toEqual({
      fields: {},
      message: 'You do not have permission to do this.',
    });
    expect(saveFailure(new Error('boom'), ['name'] as const).message).toBe('boom');
  });

  it('knows a form without errors', () => {
    expect(isValid({})).toBe(true);
    expect(isValid({ name: undefined })).toBe(true);
    expect(isValid({ name: 'Enter a name' })).toBe(false);
  });
});

describe('carrier form [SPEC-7.7, FEAT-INPUT-SAFETY]', () => {
  it('needs a name of at most 200 characters', () => {
    expect(validateCarrierForm({ name: '  ' })).toEqual({ name: 'Enter a carrier name' });
    expect(validateCarrierForm({ name: 'x'.repeat(201) }).name).toMatch(/at most 200/);
    expect(validateCarrierForm({ name: ' DHL ' })).toEqual({});
  });
});
