import type { TStabilityBandUsage } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { bandColour, bandName, bandPercent, bandUse, formatMinutes } from './budget-display';

const band = (over: Partial<TStabilityBandUsage>): TStabilityBandUsage => ({
  direction: 'ABOVE',
  limit: 8,
  allowed_minutes: 720,
  consumed_minutes: 0,
  remaining_minutes: 720,
  used_up: false,
  this_leg_minutes: 0,
  projected_minutes: null,
  used_up_at: null,
  ...over,
});

describe('stability budget display [FEAT-STABILITY-BUDGET]', () => {
  it('words a band in the user unit and its use', () => {
    expect(bandName(band({}), 'C')).toBe('Above 8.0 °C');
    expect(bandName(band({ direction: 'BELOW', limit: 0 }), 'F')).toBe('Below 32.0 °F');
    expect(bandUse(band({ consumed_minutes: 32, allowed_minutes: 30 }))).toBe(
      '32 min of 30 min used',
    );
    expect(formatMinutes(12.5)).toBe('12.5 min');
    expect(formatMinutes(725)).toBe('12h 5m');
  });

  it('fills and colours the bar by what is used and where it is heading', () => {
    expect(bandPercent(band({ consumed_minutes: 360 }))).toBe(50);
    expect(bandColour(band({ consumed_minutes: 360 }))).toBe('success');
    expect(bandColour(band({ consumed_minutes: 600 }))).toBe('warning');
    expect(bandColour(band({ consumed_minutes: 100, projected_minutes: 800 }))).toBe('warning');
    expect(bandPercent(band({ consumed_minutes: 800 }))).toBe(100);
    expect(bandColour(band({ consumed_minutes: 800, used_up: true }))).toBe('error');
    expect(bandPercent(band({ allowed_minutes: 0, consumed_minutes: 0 }))).toBe(0);
    expect(bandColour(band({ allowed_minutes: 0, projected_minutes: 0 }))).toBe('success');
    expect(bandColour(band({ allowed_minutes: 0, projected_minutes: 0.5 }))).toBe('warning');
    expect(bandPercent(band({ allowed_minutes: 0, consumed_minutes: 1, used_up: true }))).toBe(100);
  });
});
