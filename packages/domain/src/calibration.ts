/**
 * A tag's calibration lifecycle (issue 14, item 7;
 * docs/decisions/calibration-lifecycle.md). Everything compares instants
 * (milliseconds since the epoch): the time zone a date was written in never
 * changes the answer.
 */

/** The calibration states, in the order a tag passes through them. */
export const CALIBRATION_STATES = ['NONE', 'VALID', 'DUE_SOON', 'EXPIRED'] as const;
export type CalibrationState = (typeof CALIBRATION_STATES)[number];

/** Default validity of a certificate without a due date: 12 months (typical pharma practice). */
export const DEFAULT_CALIBRATION_VALIDITY_MONTHS = 12;
/** Default warning window before the due date: 30 days. */
export const DEFAULT_CALIBRATION_DUE_SOON_DAYS = 30;

const DAY_MS = 86_400_000;

/**
 * The due date `months` calendar months after `calibratedAt`, counted in UTC;
 * a day the target month does not have is its last day (29 February plus 12
 * months is 28 February).
 */
export function calibrationDueFrom(calibratedAt: Date, months: number): Date {
  if (!Number.isInteger(months) || months < 1)
    throw new RangeError('months must be a positive integer');
  const d = new Date(calibratedAt.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

/**
 * The state at `at` of a certificate due at `due` (undefined or null: no
 * certificate): EXPIRED from the due instant on, DUE_SOON when the due instant
 * is at most `dueSoonDays` days away, VALID before that.
 */
export function calibrationState(
  due: Date | null | undefined,
  at: Date,
  dueSoonDays: number,
): CalibrationState {
  if (!due) return 'NONE';
  const left = due.getTime() - at.getTime();
  if (left <= 0) return 'EXPIRED';
  if (left <= dueSoonDays * DAY_MS) return 'DUE_SOON';
  return 'VALID';
}

/** A certificate of a tag as far as its lifecycle goes. */
export interface CalibrationPeriod {
  /** When the tag was calibrated (the certificate's upload time when the lab gave none). */
  calibratedAt: Date;
  /** When its next calibration is due. */
  due: Date;
}

/**
 * The certificate in force at `at`: of those calibrated at or before `at`,
 * the latest calibrated (the later in the list on a tie). A certificate of a
 * later calibration does not speak for an earlier time.
 */
export function certificateInForce<T extends CalibrationPeriod>(
  certificates: readonly T[],
  at: Date,
): T | undefined {
  let best: T | undefined;
  for (const c of certificates) {
    if (c.calibratedAt.getTime() > at.getTime()) continue;
    if (!best || c.calibratedAt.getTime() >= best.calibratedAt.getTime()) best = c;
  }
  return best;
}

/** The state at `at` of a tag with these certificates. */
export function tagCalibrationStateAt(
  certificates: readonly CalibrationPeriod[],
  at: Date,
  dueSoonDays: number,
): { state: CalibrationState; due: Date | null } {
  const c = certificateInForce(certificates, at);
  return { state: calibrationState(c?.due, at, dueSoonDays), due: c?.due ?? null };
}
