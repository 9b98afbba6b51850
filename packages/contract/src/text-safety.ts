/**
 * Text that no field may carry: U+0000 (PostgreSQL text cannot store it) and
 * lone UTF-16 surrogates (not Unicode: they cannot be encoded as UTF-8). With
 * the `u` flag a well-formed surrogate pair is one code point (e.g. an emoji)
 * and does not match; only an unpaired half does.
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSAFE_TEXT = /[\u0000\p{Cs}]/u;

/** Whether `s` holds a NUL character or a lone surrogate. */
export function isUnsafeText(s: string): boolean {
  return UNSAFE_TEXT.test(s);
}

export type TextPath = readonly (string | number)[];

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit, lastKey?: string): TextPath {
  const path: (string | number)[] = lastKey === undefined ? [] : [lastKey];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) path.push(v.key);
  return path.reverse();
}

/**
 * The path of a string in `value` (object keys included) that holds a NUL
 * character or a lone surrogate, or null when there is none. `[]` is `value`
 * itself; a key at fault names its own path. Walks iteratively with parent
 * links, so a deeply nested body neither overflows the stack nor costs more
 * than one visit per node.
 */
export function findUnsafeText(value: unknown): TextPath | null {
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return pathOf(visit);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], key: i, parent: visit });
      }
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (const [key] of entries) if (isUnsafeText(key)) return pathOf(visit, key);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        stack.push({ value: item, key, parent: visit });
      }
    }
  }
  return null;
}

/** The message of a 400 naming the field at fault, e.g. "Field 'username' contains ...". */
export function unsafeTextMessage(field: string): string {
  return `Field '${field}' contains a character that is not allowed (a NUL character or an unpaired UTF-16 surrogate)`;
}
