/**
 * Column visibility of a grid, remembered per user in localStorage (ui.md,
 * "Column visibility remembered per user"). The stored value is a JSON object
 * of field -> shown; unknown fields and non-boolean values are ignored, so a
 * column added later shows its default, and a damaged entry is harmless.
 */

export type ColumnVisibility = Record<string, boolean>;

export type VisibilityStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function columnVisibilityKey(view: string, userId: string | null | undefined): string {
  return `coldtrace.columns.${view}.${userId ?? 'anonymous'}`;
}

/** The defaults, overridden by what the user chose for the known fields. */
export function readColumnVisibility(
  storage: VisibilityStorage | null,
  key: string,
  defaults: ColumnVisibility,
  knownFields: readonly string[],
): ColumnVisibility {
  let stored: unknown;
  try {
    const text = storage?.getItem(key);
    stored = text ? JSON.parse(text) : undefined;
  } catch {
    stored = undefined;
  }
  const result: ColumnVisibility = { ...defaults };
  if (stored !== null && typeof stored === 'object' && !Array.isArray(stored)) {
    for (const [field, shown] of Object.entries(stored as Record<string, unknown>)) {
      if (knownFields.includes(field) && typeof shown === 'boolean') result[field] = shown;
    }
  }
  return result;
}

export function writeColumnVisibility(
  storage: VisibilityStorage | null,
  key: string,
  visibility: ColumnVisibility,
): void {
  try {
    storage?.setItem(key, JSON.stringify(visibility));
  } catch {
    // Storage full or denied: the choice lasts until the page is left.
  }
}

/** localStorage, or null where it is not available. */
export function browserLocalStorage(): VisibilityStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
