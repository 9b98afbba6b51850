/**
 * The scripted shipments of the OQ suite and the values they must give, worked out
 * by hand from the definitions in the domain rules (../shared/design/domain-rules.md,
 * "RULES §n" below) and docs/decisions/stability-budget.md ("BUDGET"), never from the
 * server's code. An auditor can redo every figure from the comments alone.
 *
 * Common to all three shipments: xt1 NFC tags, one point every 600 s (10 minutes),
 * no start delay, so point i is at start + i × 600 s (RULES §1). Thresholds 2–8 °C.
 * Every start is a whole hour a day or more in the past, so every point has been
 * "measured" when it is uploaded.
 */

/** Seconds between points. */
export const INTERVAL_S = 600;
/** The same in minutes: degree-minutes and budgets count minutes. */
export const INTERVAL_MIN = INTERVAL_S / 60;
export const HIGH = 8;
export const LOW = 2;

/**
 * The product every leg of shipment "OQ-SHIP" names: thresholds as the uploads, and
 * two stability budget bands (BUDGET: "each point strictly beyond the limit counts
 * one measurement interval", summed across the legs with the same shipping reference
 * and product).
 */
export const PRODUCT = {
  high_threshold: HIGH,
  low_threshold: LOW,
  num_consecutive_excursions: 1,
  bands: [
    { direction: 'ABOVE', limit: 8.0, allowed_minutes: 45 },
    { direction: 'BELOW', limit: 2.0, allowed_minutes: 60 },
  ],
} as const;

/** Where each shipment starts: hours after the suite's origin time t0. */
export const START_OFFSET_H = { A: 0, B: 5, C: 8 } as const;

/**
 * Shipment A, leg 1 of OQ-SHIP: 24 points, stopped after the last one.
 *
 * | idx   | °C                 | note                                     |
 * |-------|--------------------|------------------------------------------|
 * | 0–3   | 5, 5, 5, 5         | in range                                 |
 * | 4–6   | 9, 10, 9.5         | high run: 3 points strictly above 8      |
 * | 7–12  | 6 × 6              | in range                                 |
 * | 13–14 | 1, 1.5             | low run: 2 points strictly below 2       |
 * | 15–23 | 4 × 9              | in range                                 |
 *
 * Cumulative thresholds: above 8.0 for more than 00:20:00, below 2.0 for more than 00:30:00.
 */
export const SERIES_A = [
  5, 5, 5, 5, 9, 10, 9.5, 6, 6, 6, 6, 6, 6, 1, 1.5, 4, 4, 4, 4, 4, 4, 4, 4, 4,
] as const;
export const CUMULATIVE_A = {
  cumulative_high_threshold: 8,
  cumulative_duration_high: '00:20:00',
  cumulative_low_threshold: 2,
  cumulative_duration_low: '00:30:00',
} as const;

/** An expected excursion alarm (RULES §2). Times are seconds after the record's start. */
export interface ExpectedExcursion {
  direction: 'ABOVE' | 'BELOW';
  firstIdx: number;
  lastIdx: number;
  startOffsetS: number;
  endOffsetS: number;
  durationS: number;
  degreeMinutes: number;
  extreme: number;
}

export const EXPECTED_A = {
  points: 24,
  // RULES §3: highest and lowest of the series.
  highest: 10,
  lowest: 1,
  // RULES §3: first to last point = (24 − 1) × 600 s = 13,800 s.
  durationS: 23 * INTERVAL_S,
  /**
   * RULES §3, MKT with ΔH/R = 10,000 K and T in kelvin (°C + 273.15):
   *   exp(−10000/T):  1 °C → 1.440485e−16   1.5 → 1.539388e−16   4 → 2.137885e−16
   *                   5 → 2.434002e−16     6 → 2.768560e−16     9 → 4.052041e−16
   *                   9.5 → 4.314222e−16   10 → 4.592349e−16
   *   sum = 4×2.434002 + 4.052041 + 4.592349 + 4.314222 + 6×2.768560 + 1.440485
   *         + 1.539388 + 9×2.137885 = 61.526822e−16
   *   mean = 61.526822e−16 / 24 = 2.5636176e−16;  −ln(mean) = 35.899942
   *   Tmk = 10000 / 35.899942 = 278.5520 K = 5.4020 °C
   */
  mkt: 5.402,
  excursions: [
    {
      // Points 4–6 strictly above 8: start 4 × 600 = 2,400 s, end (the run's last point) 6 × 600 = 3,600 s,
      // duration 3 points × 600 s = 1,800 s; degree-minutes (1 + 2 + 1.5) × 10 min = 45.0.
      direction: 'ABOVE',
      firstIdx: 4,
      lastIdx: 6,
      startOffsetS: 4 * INTERVAL_S,
      endOffsetS: 6 * INTERVAL_S,
      durationS: 3 * INTERVAL_S,
      degreeMinutes: (1 + 2 + 1.5) * INTERVAL_MIN,
      extreme: 10,
    },
    {
      // Points 13–14 strictly below 2: start 7,800 s, end 8,400 s, duration 2 × 600 = 1,200 s;
      // degree-minutes (1 + 0.5) × 10 min = 15.0.
      direction: 'BELOW',
      firstIdx: 13,
      lastIdx: 14,
      startOffsetS: 13 * INTERVAL_S,
      endOffsetS: 14 * INTERVAL_S,
      durationS: 2 * INTERVAL_S,
      degreeMinutes: (1 + 0.5) * INTERVAL_MIN,
      extreme: 1,
    },
  ] satisfies ExpectedExcursion[],
  /**
   * RULES §2, cumulative: time above 8.0 = 3 points × 600 s = 1,800 s > 00:20:00 (1,200 s): one
   * cumulative ABOVE alarm of 1,800 s. Time below 2.0 = 2 × 600 = 1,200 s, not more than
   * 00:30:00 (1,800 s): no cumulative BELOW alarm.
   */
  cumulativeAboveS: 3 * INTERVAL_S,
  // 2 excursion alarms + 1 cumulative; no budget alarm (30 of 45 and 20 of 60 minutes, see below).
  alarms: 3,
} as const;

/**
 * Shipment B, leg 2 of OQ-SHIP (uploaded after A is stopped): 12 points, at least
 * 2 consecutive points make an excursion (num_consecutive_excursions 2), stopped.
 *
 * | idx | °C  | note                                                          |
 * |-----|-----|---------------------------------------------------------------|
 * | 0–2 | 5   |                                                               |
 * | 3–4 | 9, 8.5 | run of 2 above 8: an excursion                             |
 * | 5–7 | 5   |                                                               |
 * | 8   | 8.4 | a single point above 8: below num_consecutive 2, no alarm     |
 * | 9   | 5   |                                                               |
 * | 10  | 8.0 | exactly on the threshold: not "strictly above", no alarm      |
 * | 11  | 5   |                                                               |
 */
export const SERIES_B = [5, 5, 5, 9, 8.5, 5, 5, 5, 8.4, 5, 8.0, 5] as const;
export const CONSECUTIVE_B = 2;

export const EXPECTED_B = {
  points: 12,
  highest: 9,
  lowest: 5,
  // (12 − 1) × 600 = 6,600 s.
  durationS: 11 * INTERVAL_S,
  /**
   * exp(−10000/T): 5 °C → 2.434002e−16 (×8), 9 → 4.052041e−16, 8.5 → 3.804947e−16,
   *   8.4 → 3.757266e−16, 8 → 3.572121e−16
   * sum = 8×2.434002 + 4.052041 + 3.804947 + 3.757266 + 3.572121 = 34.658391e−16
   * mean = 2.8881994e−16; −ln(mean) = 35.780728; Tmk = 279.4801 K = 6.3301 °C
   */
  mkt: 6.3301,
  excursions: [
    {
      // Points 3–4: start 1,800 s, end 2,400 s, 2 × 600 = 1,200 s; (1 + 0.5) × 10 = 15.0 degree-minutes.
      direction: 'ABOVE',
      firstIdx: 3,
      lastIdx: 4,
      startOffsetS: 3 * INTERVAL_S,
      endOffsetS: 4 * INTERVAL_S,
      durationS: 2 * INTERVAL_S,
      degreeMinutes: (1 + 0.5) * INTERVAL_MIN,
      extreme: 9,
    },
  ] satisfies ExpectedExcursion[],
  // 1 excursion + 1 budget alarm (the ABOVE 8.0 band is used up on this leg, see below).
  alarms: 2,
} as const;

/**
 * Stability budget of OQ-SHIP (BUDGET), read on either leg after both are uploaded:
 *
 * | band        | leg A                         | leg B                             | consumed | allowed | remaining | used up |
 * |-------------|-------------------------------|-----------------------------------|----------|---------|-----------|---------|
 * | ABOVE 8.0   | 9, 10, 9.5: 3 × 10 = 30 min   | 9, 8.5, 8.4: 3 × 10 = 30 min (8.0 is on the limit, not beyond) | 60 | 45 | 0 (never below 0) | yes |
 * | BELOW 2.0   | 1, 1.5: 2 × 10 = 20 min        | none: 0 min                       | 20       | 60      | 40        | no      |
 *
 * After leg A alone: ABOVE 30 of 45, BELOW 20 of 60: nothing used up, no budget alarm on A.
 * Leg B's upload uses the ABOVE band up: one alarm of kind budget on B, direction ABOVE,
 * duration the consumed time when raised = 60 min × 60 = 3,600 s.
 */
export const EXPECTED_BUDGET = {
  legs: 2,
  ABOVE: { consumed: 60, remaining: 0, usedUp: true, legA: 30, legB: 30 },
  BELOW: { consumed: 20, remaining: 40, usedUp: false, legA: 20, legB: 0 },
  budgetAlarmDurationS: 60 * 60,
} as const;

/** Read on leg A before leg B exists: one leg, ABOVE 45 − 30 = 15 left, BELOW 60 − 20 = 40 left. */
export const EXPECTED_BUDGET_A_ALONE = {
  ABOVE: { legs: 1, consumed: 30, remaining: 15, thisLeg: 30, usedUp: false },
  BELOW: { legs: 1, consumed: 20, remaining: 40, thisLeg: 20, usedUp: false },
} as const;

/**
 * Shipment C: 12 points at 5 °C, no product, not stopped (the tag still runs).
 * MKT of a constant series is that temperature: 5.0000 °C. No alarm.
 * The trip is entered by hand (RULES §4): begin at point 2 (start + 1,200 s) makes it
 * IN_TRANSIT; end at point 10 (start + 6,000 s) makes it ARRIVED.
 */
export const SERIES_C = Array.from({ length: 12 }, () => 5);
export const EXPECTED_C = {
  points: 12,
  mkt: 5,
  beginOffsetS: 2 * INTERVAL_S,
  endOffsetS: 10 * INTERVAL_S,
} as const;

/** Tolerances, stated once: the report prints them with every figure. */
export const TOLERANCE = {
  /** MKT: the report shows two decimals. */
  mktC: 0.01,
  /** Degree-minutes: stored with two decimals. */
  degreeMinutes: 0.01,
  /** Temperatures read back: exact to 0.001 °C (they are the uploaded values). */
  temperatureC: 0.001,
  /** Durations and times: exact to the second. */
  seconds: 0,
  /** Budget minutes: two decimals. */
  minutes: 0.01,
} as const;
