import { describe, expect, it } from 'vitest';
import {
  columnVisibilityKey,
  readColumnVisibility,
  writeColumnVisibility,
  type VisibilityStorage,
} from './column-visibility';

function memoryStorage(initial: Record<string, string> = {}): VisibilityStorage & {
  data: Record<string, string>;
} {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
  };
}

describe('column visibility per user [SPEC-2.12]', () => {
  it('is keyed by view and user', () => {
    expect(columnVisibilityKey('allrecords', 'u1')).toBe('coldtrace.columns.allrecords.u1');
    expect(columnVisibilityKey('allrecords', 'u1')).not.toBe(
      columnVisibilityKey('allrecords', 'u2'),
    );
  });

  it('remembers a choice and reads it back over the defaults', () => {
    const storage = memoryStorage();
    const key = columnVisibilityKey('allrecords', 'u1');
    writeColumnVisibility(storage, key, { carrier: true, id: false });
    expect(
      readColumnVisibility(storage, key, { carrier: false, created: false }, ['id', 'carrier']),
    ).toEqual({ carrier: true, created: false, id: false });
  });

  it('ignores unknown fields, non-booleans and damaged entries', () => {
    const key = 'k';
    expect(
      readColumnVisibility(
        memoryStorage({ k: '{"gone":false,"id":"no","carrier":true}' }),
        key,
        {},
        ['id', 'carrier'],
      ),
    ).toEqual({ carrier: true });
    expect(readColumnVisibility(memoryStorage({ k: '{oops' }), key, { a: false }, ['a'])).toEqual({
      a: false,
    });
    expect(readColumnVisibility(null, key, { a: false }, ['a'])).toEqual({ a: false });
  });

  it('survives a storage that refuses writes', () => {
    const storage: VisibilityStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => writeColumnVisibility(storage, 'k', { a: true })).not.toThrow();
  });
});
