import { describe, expect, it } from 'vitest';
import { bellLabel, notificationDetail, notificationText } from './bell-text';

describe('the bell texts (spec section 2)', () => {
  it('labels the count, none, and more than 99', () => {
    expect(bellLabel(0)).toBe('No notifications');
    expect(bellLabel(1)).toBe('1 notification');
    expect(bellLabel(99)).toBe('99 notifications');
    expect(bellLabel(100)).toBe('More than 99 notifications');
  });

  it("says 'Record {id} has an alarm'", () => {
    expect(notificationText({ id: '7', record_id: '42' })).toBe('Record 42 has an alarm');
  });

  it('says when the alarm has closed since, and why', () => {
    expect(notificationDetail({ id: '7', state: 'OPEN' })).toBeNull();
    expect(notificationDetail({ id: '7', state: 'CLOSED', close_cause: 'THRESHOLD_CHANGE' })).toBe(
      'Alarm closed: Thresholds changed',
    );
    expect(notificationDetail({ id: '7', resolved: true })).toBe('Alarm closed');
  });
});
