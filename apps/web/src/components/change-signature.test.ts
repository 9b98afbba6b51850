import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-error';
import {
  INITIAL_CHANGE_SIGNATURE_STEP as START,
  changeSignatureBody,
  changeSignatureStepAfter,
  checkChangeSignature,
} from './change-signature';

const closes = 'This change closes 1 alarm(s): sign it with your password and its meaning';

describe('changeSignatureStepAfter [RULE-ALARM-2, FEAT-E-SIGNATURE]', () => {
  it('asks for the reason on REASON_REQUIRED, with the message on the field', () => {
    const error = new ApiError(400, 'REASON_REQUIRED', 'A reason is needed', {
      reason: 'A reason for change is required',
    });
    expect(changeSignatureStepAfter(START, error)).toEqual({
      reasonRequired: true,
      signing: false,
      signMessage: null,
      errors: { reason: 'A reason for change is required' },
    });
  });

  it('opens the signature step on SIGNATURE_REQUIRED with the server sentence', () => {
    const error = new ApiError(400, 'SIGNATURE_REQUIRED', closes, { password: closes });
    expect(changeSignatureStepAfter(START, error)).toEqual({
      reasonRequired: true,
      signing: true,
      signMessage: closes,
      errors: {},
    });
  });

  it('puts a wrong password on the password field once signing', () => {
    const signing = { ...START, reasonRequired: true, signing: true, signMessage: closes };
    const error = new ApiError(400, 'INVALID_CREDENTIALS', 'Invalid credentials', {
      password: 'The password is not correct',
    });
    expect(changeSignatureStepAfter(signing, error)?.errors).toEqual({
      password: 'The password is not correct',
    });
    expect(changeSignatureStepAfter(signing, error)?.signing).toBe(true);
  });

  it('puts a validation message naming reason on the reason field', () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'Invalid', { reason: 'too long' });
    expect(changeSignatureStepAfter(START, error)?.errors).toEqual({ reason: 'too long' });
  });

  it('leaves other errors to the form', () => {
    expect(changeSignatureStepAfter(START, new Error('offline'))).toBeNull();
    expect(
      changeSignatureStepAfter(START, new ApiError(400, 'VALIDATION_ERROR', 'x', { name: 'y' })),
    ).toBeNull();
    expect(changeSignatureStepAfter(START, new ApiError(403, 'FORBIDDEN', 'no'))).toBeNull();
  });
});

describe('checkChangeSignature and changeSignatureBody [RULE-ALARM-2, FEAT-E-SIGNATURE]', () => {
  const empty = { reason: '  ', password: '', meaning: '' as const, secondFactorCode: '' };

  it('requires the reason only when needed, and password and meaning only when signing', () => {
    expect(checkChangeSignature(empty, START, false)).toEqual({});
    expect(checkChangeSignature(empty, START, true)).toEqual({
      reason: 'Enter the reason for this change',
    });
    expect(
      checkChangeSignature(
        { reason: 'Product re-qualified', password: '', meaning: '', secondFactorCode: '' },
        { ...START, signing: true },
        false,
      ),
    ).toEqual({
      password: 'Enter your password to sign',
      meaning: 'Choose the meaning of your signature',
    });
  });

  it('sends the trimmed reason, and password and meaning only once signing', () => {
    const values = {
      reason: ' Re-qualified ',
      password: 'pw',
      meaning: 'APPROVED' as const,
      secondFactorCode: '',
    };
    expect(changeSignatureBody(values, START)).toEqual({ reason: 'Re-qualified' });
    expect(changeSignatureBody(values, { ...START, signing: true })).toEqual({
      reason: 'Re-qualified',
      password: 'pw',
      meaning: 'APPROVED',
    });
    expect(changeSignatureBody(empty, START)).toEqual({});
    // The second factor's code goes with the signature, trimmed (issue 37 item 7).
    expect(
      changeSignatureBody({ ...values, secondFactorCode: ' 123456 ' }, { ...START, signing: true }),
    ).toMatchObject({ password: 'pw', second_factor_code: '123456' });
  });
});

describe('the second factor of a signed change [FEAT-SECOND-FACTOR]', () => {
  const signing = { ...START, reasonRequired: true, signing: true, signMessage: closes };

  it('puts a missing, wrong or not enrolled second factor on its field', () => {
    const missing = new ApiError(400, 'SECOND_FACTOR_REQUIRED', 'Enter the code', {
      second_factor_code: 'Enter the code',
    });
    expect(changeSignatureStepAfter(signing, missing)?.errors).toEqual({
      secondFactorCode: 'Enter the code',
    });
    const notEnrolled = new ApiError(403, 'SECOND_FACTOR_NOT_ENROLLED', 'Enrol first', {
      second_factor_code: 'Second factor required: enrol in your profile',
    });
    expect(changeSignatureStepAfter(signing, notEnrolled)?.errors).toEqual({
      secondFactorCode: 'Second factor required: enrol in your profile',
    });
    // Before the signature step, a 403 stays the form's.
    expect(changeSignatureStepAfter(START, new ApiError(403, 'FORBIDDEN', 'no'))).toBeNull();
  });
});
