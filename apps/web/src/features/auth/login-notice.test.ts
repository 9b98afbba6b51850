import { describe, expect, it } from 'vitest';
import { loginNotice, loginNoticeState } from './login-notice';

describe('login notice [FEAT-ACCOUNT-SECURITY]', () => {
  it('reads back the notice another page put in the navigation state', () => {
    expect(loginNotice(loginNoticeState('Your account is ready.'))).toBe('Your account is ready.');
  });

  it('ignores a missing or foreign state', () => {
    for (const state of [
      null,
      undefined,
      'text',
      42,
      {},
      { loginNotice: '' },
      { loginNotice: 1 },
    ]) {
      expect(loginNotice(state)).toBeNull();
    }
  });
});
