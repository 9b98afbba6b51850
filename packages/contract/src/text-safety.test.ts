import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findUnsafeText, isUnsafeText, unsafeTextMessage } from './text-safety';

/** Independent oracle: encodeURIComponent throws on a lone surrogate; NUL checked apart. */
function oracleUnsafe(s: string): boolean {
  if (s.includes('\u0000')) return true;
  try {
    encodeURIComponent(s);
    return false;
  } catch {
    return true;
  }
}

/** Any UTF-16 code unit, lone surrogates and NUL included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const rawString = fc.string({ unit: anyCodeUnit, maxLength: 12 });
/** Well-formed text without NUL: what every field may carry. */
const safeString = fc
  .string({ unit: 'binary', maxLength: 20 })
  .filter((s) => !s.includes('\u0000'));
const badPiece = fc.oneof(
  fc.constant('\u0000'),
  fc.integer({ min: 0xd800, max: 0xdbff }).map((n) => String.fromCharCode(n)),
  fc.integer({ min: 0xdc00, max: 0xdfff }).map((n) => String.fromCharCode(n)),
);
/** A string holding one NUL or lone surrogate between well-formed text. */
const unsafeString = fc
  .tuple(safeString, badPiece, safeString)
  // A high half then a low half would pair up: keep the bad piece alone.
  .map(([a, bad, b]) => `${a}${bad} ${b}`)
  .filter((s) => oracleUnsafe(s));
const safeJson = fc
  .jsonValue({ stringUnit: 'binary', maxDepth: 4 })
  .filter((v) => !JSON.stringify(v).includes('\\u0000'));

function setAt(root: unknown, path: readonly (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const arr: unknown[] = Array.isArray(root) ? [...(root as unknown[])] : [];
    while (arr.length <= head) arr.push(null);
    arr[head] = setAt(arr[head], rest, leaf);
    return arr;
  }
  const obj: Record<string, unknown> =
    root !== null && typeof root === 'object' && !Array.isArray(root)
      ? { ...(root as Record<string, unknown>) }
      : {};
  obj[head!] = setAt(obj[head!], rest, leaf);
  return obj;
}

const pathArb = fc.array(
  fc.oneof(fc.integer({ min: 0, max: 3 }), fc.stringMatching(/^[a-z_]{1,8}$/)),
  { maxLength: 5 },
);

describe('isUnsafeText [FEAT-INPUT-SAFETY]', () => {
  it('finds NUL and lone surrogates, not ordinary or astral text', () => {
    expect(isUnsafeText('ada')).toBe(false);
    expect(isUnsafeText('Kühlkette 2–8 °C 🧊 漢字')).toBe(false);
    expect(isUnsafeText('')).toBe(false);
    expect(isUnsafeText('a\u0000b')).toBe(true);
    expect(isUnsafeText('\ud800')).toBe(true);
    expect(isUnsafeText('x\udc00')).toBe(true);
    // A low half before a high half is two lone halves, not a pair.
    expect(isUnsafeText('\udc00\ud800')).toBe(true);
    expect(isUnsafeText('\ud83e\uddca')).toBe(false);
  });

  it('agrees with an independent check on any sequence of UTF-16 code units', () => {
    fc.assert(fc.property(rawString, (s) => isUnsafeText(s) === oracleUnsafe(s)));
  });
});

describe('findUnsafeText [FEAT-INPUT-SAFETY]', () => {
  it('names the dotted path of the value or key at fault', () => {
    expect(findUnsafeText({ username: 'a\u0000', password: 'x' })).toEqual(['username']);
    expect(findUnsafeText({ orgs: [{ name: 'ok' }, { name: '\ud800' }] })).toEqual([
      'orgs',
      1,
      'name',
    ]);
    expect(findUnsafeText({ meta: { 'bad\u0000key': 1 } })).toEqual(['meta', 'bad\u0000key']);
    expect(findUnsafeText('\u0000')).toEqual([]);
    expect(findUnsafeText({ a: 1, b: true, c: null, d: ['x', 2.5] })).toBeNull();
    expect(findUnsafeText(undefined)).toBeNull();
  });

  it('walks very deep nesting without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const path = findUnsafeText(deep);
    expect(path).toHaveLength(200_000);
    expect(path?.every((k) => k === 0)).toBe(true);
  });

  it('finds nothing in well-formed JSON values', () => {
    fc.assert(fc.property(safeJson, (v) => findUnsafeText(v) === null));
  });

  it('finds the one bad string wherever it is placed, with its path', () => {
    fc.assert(
      fc.property(safeJson, pathArb, unsafeString, (base, path, bad) => {
        const value = setAt(base, path, bad);
        expect(findUnsafeText(value)).toEqual(path);
      }),
    );
  });
});

describe('unsafeTextMessage [FEAT-INPUT-SAFETY]', () => {
  it('names the field', () => {
    expect(unsafeTextMessage('username')).toMatch(/^Field 'username' contains a character/);
  });
});
