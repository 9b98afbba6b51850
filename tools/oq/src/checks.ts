import type { RequirementId } from './requirements';

/**
 * One figure compared with its expected value. `tolerance` is the largest
 * difference accepted for numbers (0: exact); texts and flags compare exactly,
 * `contains` checks that the actual text holds the expected one.
 */
export interface Check {
  id: string;
  requirements: RequirementId[];
  title: string;
  expected: unknown;
  actual: unknown;
  tolerance?: number;
  unit?: string;
  comparison: 'equals' | 'within' | 'contains';
  pass: boolean;
}

export type CheckInput = Omit<Check, 'pass' | 'comparison'>;

/**
 * Collects the checks of a run. `overrides` replaces expected values by check id
 * before the comparison: the suite's own test uses it to show that a wrong
 * expectation fails.
 */
export class CheckList {
  readonly checks: Check[] = [];

  constructor(private readonly overrides: Readonly<Record<string, unknown>> = {}) {}

  private expected(id: string, value: unknown): unknown {
    return Object.hasOwn(this.overrides, id) ? this.overrides[id] : value;
  }

  /** A number within `tolerance` (default 0) of the expected one. */
  number(input: CheckInput): Check {
    const expected = this.expected(input.id, input.expected);
    const tolerance = input.tolerance ?? 0;
    const pass =
      typeof input.actual === 'number' &&
      typeof expected === 'number' &&
      Math.abs(input.actual - expected) <= tolerance + 1e-9;
    return this.add({ ...input, expected, tolerance, comparison: 'within', pass });
  }

  /** The same value (JSON equality: texts, flags, null). */
  equals(input: CheckInput): Check {
    const expected = this.expected(input.id, input.expected);
    const pass = JSON.stringify(input.actual) === JSON.stringify(expected);
    return this.add({ ...input, expected, comparison: 'equals', pass });
  }

  /** A text that contains the expected text. */
  contains(input: CheckInput): Check {
    const expected = this.expected(input.id, input.expected);
    const pass =
      typeof input.actual === 'string' &&
      typeof expected === 'string' &&
      input.actual.includes(expected);
    return this.add({ ...input, expected, comparison: 'contains', pass });
  }

  /** An ISO time equal to `expectedSeconds` (Unix seconds) to the second. */
  time(input: Omit<CheckInput, 'expected'> & { expectedSeconds: number }): Check {
    const { expectedSeconds, ...rest } = input;
    const actual = typeof input.actual === 'string' ? isoSeconds(input.actual) : input.actual;
    return this.equals({ ...rest, actual, expected: isoSeconds(expectedSeconds * 1000) });
  }

  private add(check: Check): Check {
    if (this.checks.some((c) => c.id === check.id)) throw new Error(`duplicate check ${check.id}`);
    this.checks.push(check);
    return check;
  }
}

/** An instant as ISO 8601 UTC to the second (from milliseconds or any ISO text). */
export function isoSeconds(value: number | string): string {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return String(value);
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
