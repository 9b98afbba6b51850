import { describe, expect, it } from 'vitest';
import { lockNotice } from './lock-notice';

describe('lock notice [RULE-ACCOUNT-1]', () => {
  it('says what locking and unlocking did to the account', () => {
    expect(lockNotice('nina', true)).toBe('nina is locked and signed out everywhere.');
    expect(lockNotice('nina', false)).toBe('nina is unlocked.');
  });
});
