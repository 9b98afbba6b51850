import { describe, expect, it } from 'vitest';
import { describePoint, pageStep, pointAfterKey, thresholdFlag } from './chart-navigation';

describe('pointAfterKey [FEAT-CHART, FEAT-ACCESSIBILITY]', () => {
  it('steps one point with the arrows and stops at both ends', () => {
    expect(pointAfterKey(4, 'ArrowRight', 10)).toBe(5);
    expect(pointAfterKey(4, 'ArrowUp', 10)).toBe(5);
    expect(pointAfterKey(4, 'ArrowLeft', 10)).toBe(3);
    expect(pointAfterKey(4, 'ArrowDown', 10)).toBe(3);
    expect(pointAfterKey(9, 'ArrowRight', 10)).toBe(9);
    expect(pointAfterKey(0, 'ArrowLeft', 10)).toBe(0);
  });

  it('goes to the first and last point with Home and End', () => {
    expect(pointAfterKey(null, 'Home', 32)).toBe(0);
    expect(pointAfterKey(17, 'Home', 32)).toBe(0);
    expect(pointAfterKey(null, 'End', 32)).toBe(31);
    expect(pointAfterKey(3, 'End', 32)).toBe(31);
  });

  it('jumps a tenth of the points with Page Up (later) and Page Down (earlier)', () => {
    expect(pageStep(100_000)).toBe(10_000);
    expect(pageStep(32)).toBe(3);
    expect(pageStep(4)).toBe(1);
    expect(pointAfterKey(50_000, 'PageUp', 100_000)).toBe(60_000);
    expect(pointAfterKey(50_000, 'PageDown', 100_000)).toBe(40_000);
    expect(pointAfterKey(95_000, 'PageUp', 100_000)).toBe(99_999);
    expect(pointAfterKey(2, 'PageDown', 32)).toBe(0);
  });

  it('starts at the first point going forward and at the last going back', () => {
    expect(pointAfterKey(null, 'ArrowRight', 32)).toBe(0);
    expect(pointAfterKey(null, 'PageUp', 32)).toBe(0);
    expect(pointAfterKey(null, 'ArrowLeft', 32)).toBe(31);
    expect(pointAfterKey(null, 'PageDown', 32)).toBe(31);
  });

  it('leaves other keys to the browser, and does nothing without points', () => {
    expect(pointAfterKey(3, 'Tab', 10)).toBeNull();
    expect(pointAfterKey(3, 'Enter', 10)).toBeNull();
    expect(pointAfterKey(3, ' ', 10)).toBeNull();
    expect(pointAfterKey(null, 'End', 0)).toBeNull();
  });
});

describe('thresholdFlag [FEAT-CHART, FEAT-ACCESSIBILITY]', () => {
  it('flags readings strictly beyond a threshold, in Celsius as stored', () => {
    expect(thresholdFlag(8.04, 8, 2)).toBe('above');
    expect(thresholdFlag(8, 8, 2)).toBeNull();
    expect(thresholdFlag(1.99, 8, 2)).toBe('below');
    expect(thresholdFlag(2, 8, 2)).toBeNull();
    expect(thresholdFlag(30, null, null)).toBeNull();
    expect(thresholdFlag(-30, null, 2)).toBe('below');
  });
});

describe('describePoint [FEAT-CHART, FEAT-ACCESSIBILITY]', () => {
  const T0 = Date.UTC(2026, 10, 24, 12, 0) / 1000;
  const readings = [
    { index: 0, time: T0, temperature: 5.04 },
    { index: 1, time: T0 + 600, temperature: 8.04 },
    { index: 3, time: T0 + 1800, temperature: 1.5 },
  ];

  it("reads the time in the user's zone, the temperature in their unit and the threshold", () => {
    const options = { unit: 'C' as const, decimals: 1, timeZone: 'UTC', high: 8, low: 2 };
    expect(describePoint(readings, 0, options)).toBe('Point 1 of 3: 11/24/2026, 12:00:00, 5.0 °C.');
    expect(describePoint(readings, 1, options)).toBe(
      'Point 2 of 3: 11/24/2026, 12:10:00, 8.0 °C, above high threshold.',
    );
    expect(describePoint(readings, 2, options)).toBe(
      'Point 3 of 3: 11/24/2026, 12:30:00, 1.5 °C, below low threshold.',
    );
    expect(
      describePoint(readings, 1, { ...options, unit: 'F', decimals: 2, timeZone: 'Asia/Tokyo' }),
    ).toBe('Point 2 of 3: 11/24/2026, 21:10:00, 46.47 °F, above high threshold.');
    expect(describePoint(readings, 3, options)).toBe('');
  });
});
