import { describe, expect, it } from 'vitest';
import {
  NO_DATA_FACTOR_MESSAGE,
  noDataFactorChange,
  noDataFactorFormFrom,
  parseNoDataFactor,
  validateNoDataFactorForm,
} from './no-data-factor-form';

describe('the no-data factor form [FEAT-NO-DATA-ALARM]', () => {
  it('starts from the saved factor, else the server default 3', () => {
    expect(noDataFactorFormFrom(undefined)).toEqual({ no_data_factor: '3' });
    expect(noDataFactorFormFrom(4.5)).toEqual({ no_data_factor: '4.5' });
  });

  it('reads decimals with a point or a comma, nothing else', () => {
    expect(parseNoDataFactor(' 2.5 ')).toBe(2.5);
    expect(parseNoDataFactor('2,5')).toBe(2.5);
    expect(parseNoDataFactor('10')).toBe(10);
    for (const bad of ['', 'three', '1e2', '-2', '2.5.1', '1000']) {
      expect(parseNoDataFactor(bad)).toBeNull();
    }
  });

  it('accepts the API bounds 1.5 to 100 and names them otherwise', () => {
    for (const ok of ['1.5', '3', '100']) {
      expect(validateNoDataFactorForm({ no_data_factor: ok })).toEqual({});
    }
    for (const bad of ['1.4', '0', '100.5', 'abc', '']) {
      expect(validateNoDataFactorForm({ no_data_factor: bad })).toEqual({
        no_data_factor: NO_DATA_FACTOR_MESSAGE,
      });
    }
    expect(NO_DATA_FACTOR_MESSAGE).toBe('A number from 1.5 to 100 (transmit intervals)');
  });

  it('sends only a changed factor', () => {
    expect(noDataFactorChange({ no_data_factor: '3' }, undefined)).toBeUndefined();
    expect(noDataFactorChange({ no_data_factor: '3.0' }, 3)).toBeUndefined();
    expect(noDataFactorChange({ no_data_factor: '5' }, 3)).toBe(5);
    expect(noDataFactorChange({ no_data_factor: 'x' }, 3)).toBeUndefined();
  });
});
