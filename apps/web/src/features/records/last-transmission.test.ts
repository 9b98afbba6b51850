import { formatDateTime } from '@coldtrace/domain';
import { describe, expect, it } from 'vitest';
import { lastTransmissionOf, lastTransmissionText } from './last-transmission';

describe('lastTransmissionText [FEAT-LAST-TRANSMISSION]', () => {
  const now = Date.parse('2026-11-22T14:05:09Z');
  const at = '2026-11-22T14:02:09Z';

  it('rt and nanotag: the time in the user zone and its age; Never before any data', () => {
    for (const tag_type of ['XT1_RT', 'NanoTag'] as const) {
      expect(lastTransmissionText({ tag_type, last_transmission: at }, 'Asia/Tokyo', now)).toBe(
        `${formatDateTime(at, 'Asia/Tokyo')} · 3m ago`,
      );
      expect(lastTransmissionText({ tag_type, last_transmission: null }, 'UTC', now)).toBe('Never');
    }
    expect(formatDateTime(at, 'Asia/Tokyo')).toContain('23:02:09');
    expect(lastTransmissionOf({ tag_type: 'XT1_RT', last_transmission: at }, 'UTC', now)).toEqual({
      time: formatDateTime(at, 'UTC'),
      age: '3m ago',
    });
  });

  it('xt1: none (the record shows its last scan)', () => {
    for (const tag_type of ['XT1_NFC_MU', 'XT1_MAX'] as const) {
      expect(lastTransmissionText({ tag_type, last_transmission: at }, 'UTC', now)).toBeNull();
      expect(lastTransmissionOf({ tag_type, last_transmission: null }, 'UTC', now)).toBeNull();
    }
  });
});
