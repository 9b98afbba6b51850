import { DEFAULT_DEGREES_UNIT, DEFAULT_TIMEZONE, type TDegreesUnit } from '@coldtrace/contract';
import { useSyncExternalStore } from 'react';

/**
 * Display settings the web application holds for the signed-in user (spec
 * section 3, "Session settings held by the web application"): the default time
 * zone every date is shown in, and the temperature unit. Set from the user's
 * settings when the session arrives (spec section 4, "Session start").
 */
export interface AppSettings {
  readonly degreesUnit: TDegreesUnit;
  readonly timeZone: string;
}

const DEFAULT_SETTINGS: AppSettings = {
  degreesUnit: DEFAULT_DEGREES_UNIT,
  timeZone: DEFAULT_TIMEZONE,
};

let current: AppSettings = DEFAULT_SETTINGS;
const listeners = new Set<() => void>();

export function getAppSettings(): AppSettings {
  return current;
}

export function setAppSettings(next: AppSettings): void {
  if (next.degreesUnit === current.degreesUnit && next.timeZone === current.timeZone) return;
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
