import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANONICAL_TIME_ZONES, TIME_ZONE_ALIASES } from './time-zone-data';
import {
  canonicalTimeZone,
  isSupportedTimeZone,
  resolveTimeZone,
  supportedTimeZones,
  timeZoneLabel,
  timeZoneOptions,
} from './timezones';

describe('supportedTimeZones [SPEC-5.7, SPEC-2.11]', () => {
  const zones = supportedTimeZones();

  it('starts with UTC, then the canonical zones in alphabetical order, without duplicates', () => {
    expect(zones[0]).toBe('UTC');
    const rest = zones.slice(1);
    expect(rest).toEqual([...rest].sort());
    expect(new Set(zones).size).toBe(zones.length);
    expect(zones).toHaveLength(CANONICAL_TIME_ZONES.length + 1);
  });

  it('removes the alias names the spec names, and every Etc/ zone', () => {
    for (const removed of ['Asia/Kolkata', 'Europe/Kyiv', 'Etc/GMT+5', 'Etc/GMT-14', 'Etc/UTC']) {
      expect(zones).not.toContain(removed);
      expect(isSupportedTimeZone(removed)).toBe(false);
    }
    expect(zones.some((zone) => zone.startsWith('Etc/'))).toBe(false);
  });

  it('keeps one name per zone: the canonical one', () => {
    for (const kept of ['Asia/Calcutta', 'Europe/Kiev', 'America/New_York', 'Europe/Berlin']) {
      expect(isSupportedTimeZone(kept)).toBe(true);
    }
    expect(isSupportedTimeZone('US/Eastern')).toBe(false);
    expect(isSupportedTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it('returns a copy the caller may change', () => {
    supportedTimeZones().pop();
    expect(supportedTimeZones()).toHaveLength(zones.length);
  });

  it('lists only zones this runtime can format in', () => {
    for (const zone of zones) {
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone })).not.toThrow();
    }
  });

  it('maps every alias to a supported zone that is not itself an alias', () => {
    for (const [alias, canonical] of Object.entries(TIME_ZONE_ALIASES)) {
      expect(isSupportedTimeZone(alias), alias).toBe(false);
      expect(isSupportedTimeZone(canonical), canonical).toBe(true);
    }
  });
});

describe('resolveTimeZone [SPEC-5.7, SPEC-2.11]', () => {
  it('keeps a supported zone', () => {
    expect(resolveTimeZone('America/Chicago')).toBe('America/Chicago');
    expect(resolveTimeZone('UTC')).toBe('UTC');
  });

  it('resolves a known alias to its canonical zone', () => {
    expect(resolveTimeZone('Asia/Kolkata')).toBe('Asia/Calcutta');
    expect(resolveTimeZone('Europe/Kyiv')).toBe('Europe/Kiev');
    expect(resolveTimeZone('US/Eastern')).toBe('America/New_York');
    expect(resolveTimeZone('Etc/UTC')).toBe('UTC');
  });

  it('falls back to UTC for anything else', () => {
    expect(resolveTimeZone('Etc/GMT+5')).toBe('UTC');
    expect(resolveTimeZone('Not/A_Zone')).toBe('UTC');
    expect(resolveTimeZone('')).toBe('UTC');
    expect(resolveTimeZone('toString')).toBe('UTC');
    expect(resolveTimeZone('__proto__')).toBe('UTC');
    expect(resolveTimeZone(null)).toBe('UTC');
    expect(resolveTimeZone(undefined)).toBe('UTC');
  });

  it('always answers a supported zone', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.constantFrom(...supportedTimeZones(), ...Object.keys(TIME_ZONE_ALIASES)),
        ),
        (zone) => {
          expect(isSupportedTimeZone(resolveTimeZone(zone))).toBe(true);
          expect(resolveTimeZone(resolveTimeZone(zone))).toBe(resolveTimeZone(zone));
        },
      ),
    );
  });

  it('agrees with canonicalTimeZone', () => {
    expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Calcutta');
    expect(canonicalTimeZone('Etc/GMT+5')).toBeNull();
    expect(canonicalTimeZone(null)).toBeNull();
  });
});

describe('timeZoneOptions [SPEC-5.7, SPEC-2.11]', () => {
  it('puts UTC and the browser zone first and the others after', () => {
    const { first, rest } = timeZoneOptions('Europe/Berlin');
    expect(first).toEqual(['UTC', 'Europe/Berlin']);
    expect(rest).not.toContain('UTC');
    expect(rest).not.toContain('Europe/Berlin');
    expect(rest).toContain('America/New_York');
    expect(first.length + rest.length).toBe(supportedTimeZones().length);
  });

  it('shows UTC once when the browser is on UTC', () => {
    expect(timeZoneOptions('UTC').first).toEqual(['UTC']);
    expect(timeZoneOptions('Etc/UTC').first).toEqual(['UTC']);
  });

  it('resolves a browser alias and leaves out an unknown browser zone', () => {
    expect(timeZoneOptions('Asia/Kolkata').first).toEqual(['UTC', 'Asia/Calcutta']);
    expect(timeZoneOptions('Etc/GMT+5').first).toEqual(['UTC']);
    expect(timeZoneOptions(undefined).first).toEqual(['UTC']);
  });

  it('partitions the supported list for any browser zone', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom(...supportedTimeZones())), (browser) => {
        const { first, rest } = timeZoneOptions(browser);
        expect(first[0]).toBe('UTC');
        expect([...first, ...rest].sort()).toEqual(supportedTimeZones().sort());
      }),
    );
  });
});

describe('timeZoneLabel [SPEC-5.7, SPEC-2.11]', () => {
  it('shows underscores as spaces', () => {
    expect(timeZoneLabel('America/New_York')).toBe('America/New York');
    expect(timeZoneLabel('America/Port_of_Spain')).toBe('America/Port of Spain');
    expect(timeZoneLabel('UTC')).toBe('UTC');
  });
});
