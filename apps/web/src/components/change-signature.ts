import type { TSignatureMeaning } from '@coldtrace/contract';
import { useState } from 'react';
import { isApiError } from '../lib/api-error';

/**
 * Reason for change and signature (21 CFR 11.10(e), EU GMP Annex 11 §9;
 * docs/decisions/alarm-lifecycle.md): a change of thresholds, product, trip
 * times, geo-fence or a travel location sends a `reason` when it touches a
 * record with alarms, and is signed (password and meaning) when it closes an
 * alarm. The server says which it needs: 400 REASON_REQUIRED (fields.reason)
 * or SIGNATURE_REQUIRED (fields.password, "This change closes N alarm(s)...");
 * a wrong password is 400 INVALID_CREDENTIALS. The form then asks for what is
 * missing and sends the change again.
 */

export interface ChangeSignatureValues {
  reason: string;
  password: string;
  meaning: TSignatureMeaning | '';
  /** The authenticator code or a recovery code (issue 37 item 7), when asked or enrolled. */
  secondFactorCode: string;
}

export interface ChangeSignatureErrors {
  reason?: string;
  password?: string;
  meaning?: string;
  secondFactorCode?: string;
}

export interface ChangeSignatureStep {
  /** The server asked for a reason (the form may not have known the change needs one). */
  reasonRequired: boolean;
  /** The change closes an alarm: the signature step shows. */
  signing: boolean;
  /** The server's sentence for the signature step ("This change closes 1 alarm(s)..."). */
  signMessage: string | null;
  /** The server's messages under the inputs. */
  errors: ChangeSignatureErrors;
}

export const INITIAL_CHANGE_SIGNATURE_STEP: ChangeSignatureStep = {
  reasonRequired: false,
  signing: false,
  signMessage: null,
  errors: {},
};

export const EMPTY_CHANGE_SIGNATURE: ChangeSignatureValues = {
  reason: '',
  password: '',
  meaning: '',
  secondFactorCode: '',
};

/** The fields of a change body this part fills. */
export interface ChangeSignatureBody {
  reason?: string;
  password?: string;
  meaning?: TSignatureMeaning;
  second_factor_code?: string;
}

/**
 * The step after a failed save, or null when the error is not about the
 * reason or the signature (the form shows it as any other failure).
 */
export function changeSignatureStepAfter(
  step: ChangeSignatureStep,
  error: unknown,
): ChangeSignatureStep | null {
  if (!isApiError(error)) return null;
  const { code, fields, message } = error;
  // The second factor (issue 37 item 7): missing, wrong, or not enrolled (403).
  if (step.signing && (code === 'SECOND_FACTOR_NOT_ENROLLED' || fields.second_factor_code)) {
    return { ...step, errors: { secondFactorCode: fields.second_factor_code ?? message } };
  }
  if (error.status !== 400) return null;
  if (code === 'REASON_REQUIRED') {
    return {
      ...step,
      reasonRequired: true,
      errors: { reason: fields.reason ?? message },
    };
  }
  if (code === 'SIGNATURE_REQUIRED') {
    const sentence = fields.password ?? message;
    return {
      reasonRequired: true,
      signing: true,
      signMessage: sentence,
      errors: fields.reason ? { reason: fields.reason } : {},
    };
  }
  if (code === 'INVALID_CREDENTIALS' && step.signing) {
    return { ...step, errors: { password: fields.password ?? message } };
  }
  const ours: ChangeSignatureErrors = {};
  if (fields.reason) ours.reason = fields.reason;
  if (fields.password && step.signing) ours.password = fields.password;
  if (fields.meaning && step.signing) ours.meaning = fields.meaning;
  if (Object.keys(ours).length === 0) return null;
  return { ...step, errors: ours };
}

/** Client-side checks: the reason when it is needed, password and meaning when signing. */
export function checkChangeSignature(
  values: ChangeSignatureValues,
  step: ChangeSignatureStep,
  reasonNeeded: boolean,
): ChangeSignatureErrors {
  const errors: ChangeSignatureErrors = {};
  if ((reasonNeeded || step.reasonRequired || step.signing) && values.reason.trim() === '') {
    errors.reason = 'Enter the reason for this change';
  }
  if (step.signing) {
    if (values.meaning === '') errors.meaning = 'Choose the meaning of your signature';
    if (values.password === '') errors.password = 'Enter your password to sign';
  }
  return errors;
}

/** What the change sends: the reason when given, password and meaning once signing. */
export function changeSignatureBody(
  values: ChangeSignatureValues,
  step: ChangeSignatureStep,
): ChangeSignatureBody {
  const body: ChangeSignatureBody = {};
  const reason = values.reason.trim();
  if (reason !== '') body.reason = reason;
  if (step.signing && values.password !== '' && values.meaning !== '') {
    body.password = values.password;
    body.meaning = values.meaning;
    const code = values.secondFactorCode.trim();
    if (code !== '') body.second_factor_code = code;
  }
  return body;
}

/**
 * State of the reason and signature inputs of one form. `reasonNeeded`: the
 * form knows the change touches a record with alarms, so the reason is
 * required before sending.
 */
export function useChangeSignature(reasonNeeded: boolean) {
  const [values, setValues] = useState<ChangeSignatureValues>(EMPTY_CHANGE_SIGNATURE);
  const [step, setStep] = useState<ChangeSignatureStep>(INITIAL_CHANGE_SIGNATURE_STEP);
  const [attempted, setAttempted] = useState(false);
  const clientErrors = attempted ? checkChangeSignature(values, step, reasonNeeded) : {};
  // The server's message (e.g. a wrong password) stays until its input changes.
  const errors: ChangeSignatureErrors = { ...clientErrors, ...step.errors };

  function set<F extends keyof ChangeSignatureValues>(field: F, value: ChangeSignatureValues[F]) {
    setValues((current) => ({ ...current, [field]: value }));
    setStep((current) => {
      if (current.errors[field] === undefined) return current;
      const next = { ...current.errors };
      delete next[field];
      return { ...current, errors: next };
    });
  }

  return {
    values,
    step,
    errors,
    reasonNeeded,
    set,
    /** Marks the form as submitted; true when the reason and signature inputs may be sent. */
    check(): boolean {
      setAttempted(true);
      return Object.keys(checkChangeSignature(values, step, reasonNeeded)).length === 0;
    },
    body: () => changeSignatureBody(values, step),
    /** Shows a failed save on these inputs; false when the error is not theirs. */
    fail(error: unknown): boolean {
      const next = changeSignatureStepAfter(step, error);
      if (next === null) return false;
      // The signature step starts clean: no "enter your password" before the user could.
      if (next.signing && !step.signing) setAttempted(false);
      setStep(next);
      // A password (and a code) is entered again for each try.
      setValues((current) => ({ ...current, password: '', secondFactorCode: '' }));
      return true;
    },
    reset() {
      setValues(EMPTY_CHANGE_SIGNATURE);
      setStep(INITIAL_CHANGE_SIGNATURE_STEP);
      setAttempted(false);
    },
  };
}

export type ChangeSignatureState = ReturnType<typeof useChangeSignature>;

/**
 * An error the reason and signature inputs show themselves (the form stays
 * open): the shared error handler leaves it alone.
 */
export function isChangeSignatureError(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.code === 'SECOND_FACTOR_NOT_ENROLLED') return true;
  if (error.status !== 400) return false;
  return (
    [
      'REASON_REQUIRED',
      'SIGNATURE_REQUIRED',
      'INVALID_CREDENTIALS',
      'SECOND_FACTOR_REQUIRED',
    ].includes(error.code) || error.fields.reason !== undefined
  );
}

/** "12 / 2,000 characters": how much of a free-text field is used. */
export function characterCount(text: string, max: number): string {
  return `${text.length.toLocaleString('en-US')} / ${max.toLocaleString('en-US')} characters`;
}
