/** What every formatter of the domain package shows for a missing or invalid value. */
export const MISSING_VALUE = '—';
