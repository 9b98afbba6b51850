import type { TUser } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { mustAgreeToTerms } from '../session/components/session-guard';
import { checkNewPassword, PASSWORDS_DO_NOT_MATCH } from './new-password';

describe('new password form (reset and welcome) [SPEC-2.2, FEAT-ACCOUNT-SECURITY]', () => {
  it('needs both fields and a matching confirmation before sending', () => {
    expect(checkNewPassword('a passphrase', 'a passphrase')).toEqual({});
    expect(checkNewPassword('', '')).toEqual({
      new_password: 'Enter a new password.',
      new_password_confirm: 'Enter the new password again.',
    });
    expect(checkNewPassword('a passphrase', 'another')).toEqual({
      new_password_confirm: PASSWORDS_DO_NOT_MATCH,
    });
  });
});

describe('terms agreement guard [SPEC-2.2, FEAT-ACCOUNT-SECURITY]', () => {
  const user = (agreed: boolean) => ({ has_agreed_to_tos: agreed }) as TUser;

  it('takes a user who has not agreed to /tou-agreement from any app page', () => {
    expect(mustAgreeToTerms(user(false), '/')).toBe(true);
    expect(mustAgreeToTerms(user(false), '/allrecords')).toBe(true);
    expect(mustAgreeToTerms(user(true), '/allrecords')).toBe(false);
  });

  it('lets them read the terms, the privacy policy and the changelog', () => {
    for (const path of ['/tou-agreement', '/terms-of-use', '/privacy-policy', '/changelog']) {
      expect(mustAgreeToTerms(user(false), path)).toBe(false);
    }
  });
});
