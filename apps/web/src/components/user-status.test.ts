import { describe, expect, it } from 'vitest';
import { userStatusRank, userStatuses } from './user-status';

describe('user status [RULE-ACCOUNT-1]', () => {
  it('says Active for a member neither locked nor suspended', () => {
    expect(userStatuses({})).toEqual(['Active']);
    expect(userStatuses({ is_locked: false, is_suspended: false })).toEqual(['Active']);
  });

  it('says Locked, Suspended, or both', () => {
    expect(userStatuses({ is_locked: true })).toEqual(['Locked']);
    expect(userStatuses({ is_suspended: true })).toEqual(['Suspended']);
    expect(userStatuses({ is_locked: true, is_suspended: true })).toEqual(['Locked', 'Suspended']);
  });

  it('sorts active before suspended before locked', () => {
    const ranks = [{}, { is_suspended: true }, { is_locked: true }].map(userStatusRank);
    expect(ranks).toEqual([0, 1, 2]);
    expect(userStatusRank({ is_locked: true, is_suspended: true })).toBe(3);
  });
});
