/**
 * Client-side sorting of a small table (configuration lists): text compared
 * like people read it (case-insensitive, numbers in text by value), numbers
 * by value, booleans true first when ascending; missing values always last.
 * The sort is stable, so equal rows keep the server's order.
 */

export type SortValue = string | number | boolean | null | undefined;
export type SortDirection = 'asc' | 'desc';

const collator = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true });

function isMissing(value: SortValue): value is null | undefined {
  return value == null || (typeof value === 'number' && Number.isNaN(value)) || value === '';
}

/** Compares two present values of a column, ascending. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? -1 : 1;
  return collator.compare(String(a), String(b));
}

/** A sorted copy of `rows` by `value`, missing values last in both directions. */
export function sortRows<R>(
  rows: readonly R[],
  value: (row: R) => SortValue,
  direction: SortDirection,
): R[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((a, b) => {
      const aMissing = isMissing(a.key);
      const bMissing = isMissing(b.key);
      if (aMissing || bMissing) {
        return aMissing === bMissing ? a.index - b.index : aMissing ? 1 : -1;
      }
      return sign * compareSortValues(a.key, b.key) || a.index - b.index;
    })
    .map(({ row }) => row);
}
