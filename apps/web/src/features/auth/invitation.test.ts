import type { TInvitationView } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import {
  checkInvitationForm,
  deadLinkMessage,
  invitationFieldErrors,
  invitationFormFrom,
  invitationSentence,
} from './invitation';
import { PASSWORDS_DO_NOT_MATCH } from './new-password';

const view: TInvitationView = {
  organization_name: 'Acme Cold Chain',
  role_name: 'Operator',
  invited_by: 'Ada Admin',
  email: 'nina@example.test',
  username: 'nina',
  first_name: 'Nina',
  last_name: 'New',
  account_exists: false,
  expires: '2026-01-08T00:00:00Z',
};

const DEAD =
  "This invitation link is invalid, has expired, was revoked or was already used. Ask the organization's administrator for a new one.";

describe('invitation page [RULE-ACCOUNT-1]', () => {
  it('says who invited whom, where and as what', () => {
    expect(invitationSentence(view)).toBe(
      'Ada Admin invited you to join Acme Cold Chain as Operator.',
    );
  });

  it('prefills the form with the suggested username and names, never a password', () => {
    expect(invitationFormFrom(view)).toEqual({
      username: 'nina',
      first_name: 'Nina',
      last_name: 'New',
      new_password: '',
      new_password_confirm: '',
    });
  });

  it('checks every field before sending, the password as the welcome page does', () => {
    const filled = {
      ...invitationFormFrom(view),
      new_password: 'a b c d',
      new_password_confirm: 'a b c d',
    };
    expect(checkInvitationForm(filled)).toEqual({});
    expect(
      checkInvitationForm({ ...filled, username: ' ', first_name: '', last_name: '\t' }),
    ).toEqual({
      username: 'Enter a username.',
      first_name: 'Enter your first name.',
      last_name: 'Enter your last name.',
    });
    expect(checkInvitationForm({ ...filled, new_password_confirm: 'other' })).toEqual({
      new_password_confirm: PASSWORDS_DO_NOT_MATCH,
    });
    expect(checkInvitationForm({ ...filled, new_password: '', new_password_confirm: '' })).toEqual({
      new_password: 'Enter a new password.',
      new_password_confirm: 'Enter the new password again.',
    });
  });

  it("keeps the server's messages for the form's fields only", () => {
    expect(
      invitationFieldErrors({
        username: 'This username is taken: choose another',
        new_password: 'This password is too common.',
        token: DEAD,
      }),
    ).toEqual({
      username: 'This username is taken: choose another',
      new_password: 'This password is too common.',
    });
  });

  it('tells a dead link from other failures', () => {
    expect(deadLinkMessage(new ApiError(400, 'VALIDATION', 'Invalid', { token: DEAD }))).toBe(DEAD);
    const weak = new ApiError(400, 'VALIDATION', 'Invalid', { new_password: 'Too short.' });
    expect(deadLinkMessage(weak)).toBeNull();
    expect(deadLinkMessage(new ApiError(403, 'FORBIDDEN', 'Another address'))).toBeNull();
    expect(deadLinkMessage(new ApiError(500, 'HTTP_500', 'Down'), true)).toBeNull();
    expect(deadLinkMessage(new Error('offline'))).toBeNull();
    // Checking the link: any 400 is the link's fault.
    expect(deadLinkMessage(new ApiError(400, 'VALIDATION', 'Bad link'), true)).toBe('Bad link');
  });
});
