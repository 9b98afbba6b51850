import { describe, expect, it } from 'vitest';
import { actionTypeDisplay, knownPosition, secondsIso } from './presenter';

describe('presenter helpers [SPEC-3]', () => {
  it('names action types for people, however the ingest spells them', () => {
    expect(actionTypeDisplay('start')).toBe('Start');
    expect(actionTypeDisplay('START_ACTION')).toBe('Start');
    expect(actionTypeDisplay('stop-action')).toBe('Stop');
    expect(actionTypeDisplay('create-shipment-action')).toBe('Create shipment');
    expect(actionTypeDisplay('UPDATE_SHIPMENT')).toBe('Update shipment');
    expect(actionTypeDisplay('trip_edit')).toBe('Trip edit');
    expect(actionTypeDisplay('calibration-check')).toBe('Calibration check');
    expect(actionTypeDisplay('')).toBe('');
  });

  it('answers a position only when it is one', () => {
    expect(knownPosition(59.9, 10.7)).toEqual({ latitude: 59.9, longitude: 10.7 });
    expect(knownPosition(0, 0)).toEqual({ latitude: 0, longitude: 0 });
    expect(knownPosition(-91, -181)).toBeNull();
    expect(knownPosition(-91, 10)).toBeNull();
    expect(knownPosition(10, -181)).toBeNull();
    expect(knownPosition(500, 10)).toBeNull();
    expect(knownPosition(null, 10)).toBeNull();
    expect(knownPosition(Number.NaN, 10)).toBeNull();
  });

  it('turns Unix seconds into ISO 8601', () => {
    expect(secondsIso(1_741_165_200)).toBe('2025-03-05T09:00:00.000Z');
    expect(secondsIso(1e17)).toBeNull();
  });
});
