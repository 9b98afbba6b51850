import { describe, expect, it } from 'vitest';
import { bandRowsFrom, bandsBody, hasBandErrors, validateBandRows } from './stability-budget-form';

describe('the stability budget rows of the product form [FEAT-STABILITY-BUDGET]', () => {
  it('round-trips stored bands through the rows, in °C and °F', () => {
    const bands = [
      { direction: 'ABOVE' as const, limit: 8, allowed_minutes: 720 },
      { direction: 'BELOW' as const, limit: 0, allowed_minutes: 0 },
    ];
    expect(bandsBody(bandRowsFrom(bands, 'C'), 'C')).toEqual(bands);
    expect(bandRowsFrom(bands, 'F').map((r) => r.limit)).toEqual(['46.4', '32']);
    expect(bandsBody(bandRowsFrom(bands, 'F'), 'F')).toEqual(bands);
    expect(bandsBody([], 'C')).toBeNull();
  });

  it('names what is wrong per row, as the server would refuse it', () => {
    const errors = validateBandRows(
      [
        { direction: 'ABOVE', limit: '8.05', minutes: '10' },
        { direction: 'ABOVE', limit: '8', minutes: '-1' },
        { direction: 'ABOVE', limit: '8.0', minutes: '5' },
        { direction: 'BELOW', limit: 'cold', minutes: '' },
        { direction: 'BELOW', limit: '8', minutes: '0' },
      ],
      'C',
    );
    expect(errors[0]).toEqual({ limit: 'Use at most one decimal, e.g. 8 or 2.5' });
    expect(errors[1]?.minutes).toMatch(/whole minutes/);
    expect(errors[2]).toEqual({ limit: 'This band is already given' });
    expect(errors[3]?.limit).toMatch(/temperature/);
    expect(errors[3]?.minutes).toMatch(/whole minutes/);
    expect(errors[4]).toEqual({});
    expect(hasBandErrors(errors)).toBe(true);
    expect(
      hasBandErrors(validateBandRows([{ direction: 'ABOVE', limit: '46', minutes: '1' }], 'F')),
    ).toBe(false);
  });
});
