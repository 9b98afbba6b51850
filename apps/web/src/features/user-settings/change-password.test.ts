import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import {
  checkPasswordChange,
  PASSWORDS_DO_NOT_MATCH,
  serverPasswordChangeErrors,
} from './components/change-password-dialog';

const form = (o: Partial<Record<string, string>> = {}) => ({
  old_password: 'old one',
  new_password: 'new passphrase 1',
  new_password_confirm: 'new passphrase 1',
  ...o,
});

describe('Change Password dialog (spec section 5) [SPEC-5.2]', () => {
  it('needs all three fields', () => {
    expect(checkPasswordChange(form())).toEqual({});
    expect(
      Object.keys(
        checkPasswordChange({ old_password: '', new_password: '', new_password_confirm: '' }),
      ).sort(),
    ).toEqual(['new_password', 'new_password_confirm', 'old_password']);
  });

  it("shows 'Passwords do not match' on the confirmation when they differ", () => {
    expect(checkPasswordChange(form({ new_password_confirm: 'other' }))).toEqual({
      new_password_confirm: PASSWORDS_DO_NOT_MATCH,
    });
  });

  it('shows a plain string error under the current password', () => {
    expect(serverPasswordChangeErrors(new ApiError(500, 'INTERNAL', 'Server fell over'))).toEqual({
      old_password: 'Server fell over',
    });
  });

  it('shows an object error per field and ignores errors on the confirmation', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'bad', {
      old_password: 'Wrong',
      new_password: 'Too common',
      new_password_confirm: 'Passwords do not match',
    });
    expect(serverPasswordChangeErrors(error)).toEqual({
      old_password: 'Wrong',
      new_password: 'Too common',
    });
    expect(
      serverPasswordChangeErrors(
        new ApiError(400, 'VALIDATION_ERROR', 'bad', { new_password_confirm: 'x' }),
      ),
    ).toEqual({});
  });
});
