import { ZScan, type TRecord, type TScan } from '@coldtrace/contract';
import { MISSING_VALUE } from '@coldtrace/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getAppSettings, setAppSettings } from '../../../lib/app-settings';
import { stubApi } from '../../../test/api';
import { recordOf } from '../../../test/fixtures';
import { renderInApp } from '../../../test/render';
import { SummaryStrip } from './summary-strip';

/** The strip's terms and what each says, in order. */
function summary(): Record<string, string | undefined> {
  const terms = [...screen.getByLabelText('Summary').querySelectorAll('dt')];
  return Object.fromEntries(
    terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
  );
}

function renderStrip(record: TRecord, unit: 'C' | 'F' = 'C', latestScan?: TScan) {
  stubApi();
  renderInApp(<SummaryStrip record={record} latestScan={latestScan} unit={unit} timeZone="UTC" />);
  return summary();
}

const MEASURED: Partial<TRecord> = {
  highest_recorded_temperature: 9.44,
  lowest_recorded_temperature: 2.06,
  mean_kinetic_temp: 5.27,
  record_duration: 97_500,
  number_of_points: 6480,
  low_threshold: 2,
  high_threshold: 8,
  battery_health: 'OK',
  memory_health: 'MEMORY_FULL',
  last_scanned: '2026-11-21T09:00:00Z',
  last_scanned_user: 'sam.ortiz',
  last_latitude: 52.37,
  last_longitude: 4.9,
  measurement_interval: 900,
  calculated_measurement_interval: 60,
};

describe('the summary strip of the record page [RULE-SUMMARY-1, SPEC-9.1, SPEC-9.2, SPEC-9.3]', () => {
  it("prints the record's summary in the user's unit, to one decimal", () => {
    expect(renderStrip(recordOf(MEASURED))).toEqual({
      Highest: '9.4 °C',
      Lowest: '2.1 °C',
      'Mean kinetic temperature': '5.3 °C',
      Duration: '1d 3h 5m',
      Points: '6,480',
      Thresholds: '2.0 °C to 8.0 °C',
      Battery: 'OK',
      Memory: 'Memory full',
      'Last scanned': '11/21/2026, 09:00:00',
      'Scanned by': 'sam.ortiz',
      'Scanned at': '52.3700, 4.9000',
      'Measurement interval': '1m',
    });
  });

  it('converts to Fahrenheit and follows the display rule for decimals', () => {
    const before = getAppSettings();
    setAppSettings({ ...before, temperatureDecimals: 2 });
    const shown = renderStrip(recordOf(MEASURED), 'F');
    expect(shown).toMatchObject({
      Highest: '48.99 °F',
      Lowest: '35.71 °F',
      Thresholds: '35.60 °F to 46.40 °F',
    });
  });

  it('says what is missing instead of inventing it, for a record with no data yet', () => {
    expect(
      renderStrip(recordOf({ stop_time: null, trip: { trip_status: 'NOT_DEPARTED' } })),
    ).toEqual({
      Highest: MISSING_VALUE,
      Lowest: MISSING_VALUE,
      'Mean kinetic temperature': MISSING_VALUE,
      Duration: MISSING_VALUE,
      Points: MISSING_VALUE,
      Thresholds: 'None set',
      Battery: 'Unknown',
      Memory: 'Unknown',
      'Last scanned': 'Never',
      'Scanned by': MISSING_VALUE,
      'Scanned at': MISSING_VALUE,
      'Measurement interval': MISSING_VALUE,
    });
  });

  it("places the last scan where the latest scan was, not at the record's last position", () => {
    const scan = ZScan.parse({ id: '3', latitude: 51.9225, longitude: 4.4792 });
    expect(renderStrip(recordOf(MEASURED), 'C', scan)['Scanned at']).toBe('51.9225, 4.4792');
  });

  it('reads an unknown scan position (-91, -181) as Unknown, and warns of a low battery', () => {
    const shown = renderStrip(
      recordOf({
        ...MEASURED,
        last_latitude: -91,
        last_longitude: -181,
        battery_health: 'LOW_BATTERY',
      }),
    );
    expect(shown['Scanned at']).toBe('Unknown');
    expect(shown.Battery).toBe('Low battery');
  });

  it('shows the last transmission of a real-time tag, and no scan it never had', () => {
    const shown = renderStrip(
      recordOf({ tag_type: 'XT1_RT', last_transmission: null, last_scanned: null }),
    );
    expect(shown['Last transmission']).toBe('Never');
    expect(shown).not.toHaveProperty('Last scanned');
    expect(shown).not.toHaveProperty('Scanned by');
  });
});
