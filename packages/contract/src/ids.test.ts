import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isUuid, parseRowId, zRowId } from './ids';
import { xt1AlarmAcknowledge } from './calls/alarms';
import { notificationLogList } from './calls/alarm-mail';

/** Issue 12: one definition of each kind of id, used by the schemas and the server alike. */
describe('ids [SPEC-3]', () => {
  it('a row id field accepts exactly the text parseRowId reads', () => {
    const field = z.object({ id: zRowId() });
    for (const text of [
      '1',
      ' 42 ',
      '7700000001',
      '4503599627370495',
      '0',
      '007',
      '-1',
      '1e3',
      '',
      '9007199254740993',
    ]) {
      const parsed = field.safeParse({ id: text });
      expect({ text, ok: parsed.success }).toEqual({
        text,
        ok: parseRowId(text.trim()) !== undefined,
      });
    }
    const refused = field.safeParse({ id: '007' });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['id', 'must be a decimal id'],
    ]);
  });

  it('the calls name ids with it', () => {
    expect(xt1AlarmAcknowledge.body!.safeParse({ alarm_ids: ['007'] }).success).toBe(false);
    expect(notificationLogList.query!.safeParse({ record_id: '0' }).success).toBe(false);
    expect(notificationLogList.query!.safeParse({ record_id: '12' }).success).toBe(true);
  });

  it('isUuid accepts UUIDs only', () => {
    expect(isUuid('956b29de-82d0-42e9-afdd-564c71ab65b8')).toBe(true);
    expect(isUuid('956b29de82d042e9afdd564c71ab65b8')).toBe(false);
    expect(isUuid(7)).toBe(false);
  });
});
