/**
 * Times between the database and the domain: the domain counts seconds (a
 * number), the database keeps timestamps to the millisecond. Used by the
 * recomputation of a record (ingest) and by the alarm lifecycle (alarms).
 */

export const toDate = (seconds: number | null): Date | null =>
  seconds === null ? null : new Date(Math.round(seconds * 1000));
export const toSeconds = (date: Date | null): number | null =>
  date === null ? null : date.getTime() / 1000;
/** Times as the database keeps them (milliseconds). */
export const asStoredTime = (seconds: number): number => Math.round(seconds * 1000) / 1000;
