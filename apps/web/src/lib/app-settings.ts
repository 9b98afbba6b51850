import { DEFAULT_DEGREES_UNIT, DEFAULT_TIMEZONE, type TDegreesUnit } from '@coldtrace/contract';
import { TEMPERATURE_DISPLAY_DECIMALS } from '@coldtrace/domain';
import { useSyncExternalStore } from 'react';
import type { DisplayRuleField } from './display-rule';

/**
 * Display settings the web application holds for the signed-in user (spec
 * section 3, "Session settings held by the web application"): the default time
 * zone every date is shown in, and the temperature unit. Set from the user's
 * settings when the session arrives (spec section 4, "Session start").
 *
 * The organization's data display rule for the user, once loaded, overrides the
 * unit and sets the decimals of temperatures and the record fields not shown
 * (docs/decisions/data-display-rules.md); the user's own unit stays in their
 * settings (the Units dialog reads those).
 */
export interface AppSettings {
  readonly degreesUnit: TDegreesUnit;
  readonly timeZone: string;
  /** Decimals of temperatures shown (0 to 2; the spec's one without a rule). */
  readonly temperatureDecimals: number;
  /** Record fields the display rule hides. */
  readonly hiddenFields: readonly DisplayRuleField[];
}

const DEFAULT_SETTINGS: AppSettings = {
  degreesUnit: DEFAULT_DEGREES_UNIT,
  timeZone: DEFAULT_TIMEZONE,
  temperatureDecimals: TEMPERATURE_DISPLAY_DECIMALS,
  hiddenFields: [],
};

function sameSettings(a: AppSettings, b: AppSettings): boolean {
  return (
    a.degreesUnit === b.degreesUnit &&
    a.timeZone === b.timeZone &&
    a.temperatureDecimals === b.temperatureDecimals &&
    a.hiddenFields.length === b.hiddenFields.length &&
    a.hiddenFields.every((field, i) => field === b.hiddenFields[i])
  );
}

let current: AppSettings = DEFAULT_SETTINGS;
const listeners = new Set<() => void>();

export function getAppSettings(): AppSettings {
  return current;
}

export function setAppSettings(next: AppSettings): void {
  if (sameSettings(next, current)) return;
  current = next;
  for (const listener of listeners) listener();
}

export function resetAppSettings(): void {
  setAppSettings(DEFAULT_SETTINGS);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current display settings; re-renders when they change. */
export function useAppSettings(): AppSettings {
  return useSyncExternalStore(subscribe, getAppSettings, getAppSettings);
}
