import { DEFAULT_PAGE_SIZE } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { notFound } from './errors';
import { isUuid, parseRowId } from './ids';
import { pageOf } from './paging';
import { organizationOf } from './principal';

describe('kernel [FEAT-INPUT-SAFETY, RULE-ORG-1]', () => {
  it('parseRowId: decimal text without sign or leading zero, a safe integer, else undefined', () => {
    expect(parseRowId('1')).toBe(1);
    expect(parseRowId('4503599627370495')).toBe(4503599627370495);
    for (const text of [
      '',
      '0',
      '007',
      '-1',
      '+1',
      '1.0',
      '1e3',
      ' 1',
      '12345678901234567',
      '9999999999999999',
    ]) {
      expect({ text, id: parseRowId(text) }).toEqual({ text, id: undefined });
    }
  });

  it('isUuid: any UUID, either case; nothing else', () => {
    expect(isUuid('0190a4b2-7c1e-7d3a-9f00-AbCdEf012345')).toBe(true);
    for (const value of [
      '',
      '0190a4b2-7c1e-7d3a-9f00-abcdef01234',
      'x190a4b2-7c1e-7d3a-9f00-abcdef012345',
      42,
      null,
    ]) {
      expect(isUuid(value)).toBe(false);
    }
  });

  it('notFound: 404 NOT_FOUND, naming the field when given', () => {
    const named = notFound("Record '7'", 'record_id');
    expect([named.statusCode, named.code, named.message]).toEqual([
      404,
      'NOT_FOUND',
      "Record '7' not found",
    ]);
    expect(named.fields).toEqual({ record_id: "Record '7' not found" });
    expect(notFound('Organization').fields).toBeUndefined();
  });

  it('pageOf: page 1 of the default size unless told, with the rows to skip', () => {
    expect(pageOf({})).toEqual({ number: 1, size: DEFAULT_PAGE_SIZE, offset: 0 });
    expect(pageOf({ page_number: 3, page_size: 50 })).toEqual({ number: 3, size: 50, offset: 100 });
  });

  it('organizationOf: the organization, or one answer for none', () => {
    expect(organizationOf({ organizationId: 'org' })).toBe('org');
    expect(() => organizationOf({ organizationId: null })).toThrow(
      expect.objectContaining({ statusCode: 403, code: 'FORBIDDEN' }),
    );
  });
});
