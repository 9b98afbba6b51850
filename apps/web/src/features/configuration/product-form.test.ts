import { describe, expect, it } from 'vitest';
import {
  EMPTY_PRODUCT_FORM,
  productCreateBody,
  productFormFrom,
  productUpdateBody,
  temperatureBounds,
  validateProductForm,
  type ProductFormValues,
} from './product-form';

const form = (values: Partial<ProductFormValues>): ProductFormValues => ({
  ...EMPTY_PRODUCT_FORM,
  product_name: 'Vaccine',
  ...values,
});

describe('product form checks [SPEC-7.7]', () => {
  it('accepts a name alone', () => {
    expect(validateProductForm(form({}), 'C')).toEqual({});
  });

  it('needs a name', () => {
    expect(validateProductForm(form({ product_name: ' ' }), 'C').product_name).toBe(
      'Enter a product name',
    );
  });

  it('refuses a low threshold above the high one, under the low threshold', () => {
    const errors = validateProductForm(form({ high_threshold: '2', low_threshold: '8' }), 'C');
    expect(errors).toEqual({ low_threshold: 'Must not be above the high threshold (2 °C)' });
    expect(
      validateProductForm(
        form({ cumulative_high_threshold: '40', cumulative_low_threshold: '41' }),
        'F',
      ).cumulative_low_threshold,
    ).toBe('Must not be above the cumulative high threshold (40 °F)');
    expect(validateProductForm(form({ high_threshold: '5', low_threshold: '5' }), 'C')).toEqual({});
  });

  it('checks numbers and the server bounds in the user unit', () => {
    expect(validateProductForm(form({ high_threshold: 'warm' }), 'C').high_threshold).toBe(
      'Enter a number in °C, e.g. 8 or -2.5',
    );
    expect(validateProductForm(form({ low_threshold: '-274' }), 'C').low_threshold).toBe(
      'Enter a temperature from -273.15 °C to 1000 °C',
    );
    expect(validateProductForm(form({ low_threshold: '-459.67' }), 'F')).toEqual({});
    expect(validateProductForm(form({ high_threshold: '1833' }), 'F').high_threshold).toBe(
      'Enter a temperature from -459.67 °F to 1832 °F',
    );
    expect(temperatureBounds('F')).toBe('-459.67 °F to 1832 °F');
  });

  it('checks consecutive excursions and durations', () => {
    expect(
      validateProductForm(form({ num_consecutive_excursions: '0' }), 'C')
        .num_consecutive_excursions,
    ).toBe('Enter a whole number from 1 to 100,000');
    expect(
      validateProductForm(form({ num_consecutive_excursions: '2.5' }), 'C')
        .num_consecutive_excursions,
    ).toBeDefined();
    expect(validateProductForm(form({ cumulative_duration_high: '1:30' }), 'C')).toEqual({
      cumulative_duration_high: 'Use [DD ]HH:MM:SS, e.g. 01:30:00 or 1 12:00:00',
    });
    expect(
      validateProductForm(form({ cumulative_duration_low: '3651 00:00:00' }), 'C')
        .cumulative_duration_low,
    ).toBe('Use at most 3650 days');
    expect(
      validateProductForm(
        form({ cumulative_duration_high: '01:30:00', cumulative_duration_low: '1 12:00:00' }),
        'C',
      ),
    ).toEqual({});
  });
});

describe('product bodies [SPEC-7.7]', () => {
  it('sends thresholds in °C, blanks as null, trimmed text', () => {
    expect(
      productCreateBody(
        form({
          product_name: ' Vaccine ',
          high_threshold: '46.4',
          low_threshold: '35.6',
          num_consecutive_excursions: '3',
          cumulative_duration_high: ' 01:30:00 ',
        }),
        'F',
      ),
    ).toEqual({
      product_name: 'Vaccine',
      high_threshold: 8,
      low_threshold: 2,
      num_consecutive_excursions: 3,
      cumulative_high_threshold: null,
      cumulative_low_threshold: null,
      cumulative_duration_high: '01:30:00',
      cumulative_duration_low: null,
    });
  });

  it('fills the form in the user unit and edits only what changed', () => {
    const stored = {
      id: '1',
      product_name: 'Vaccine',
      high_threshold: 8.25,
      low_threshold: 2,
      num_consecutive_excursions: 1,
      cumulative_high_threshold: null,
      cumulative_low_threshold: null,
      cumulative_duration_high: '01:30:00',
      cumulative_duration_low: null,
    };
    const initial = productFormFrom(stored, 'F');
    expect(initial).toMatchObject({
      high_threshold: '46.9',
      low_threshold: '35.6',
      num_consecutive_excursions: '1',
      cumulative_duration_high: '01:30:00',
      cumulative_duration_low: '',
    });
    // Untouched: nothing to send, so 8.25 °C is not rounded through °F.
    expect(productUpdateBody(initial, initial, 'F')).toEqual({});
    expect(
      productUpdateBody(
        { ...initial, low_threshold: '37.4', cumulative_duration_high: '' },
        initial,
        'F',
      ),
    ).toEqual({ low_threshold: 3, cumulative_duration_high: null });
    expect(productFormFrom(stored, 'C').high_threshold).toBe('8.3');
  });
});
