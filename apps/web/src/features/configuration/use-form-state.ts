import { useState } from 'react';
import { isValid, saveFailure, type FormErrors } from './form-fields';

/**
 * State of one configuration form: the values, the client-side errors (shown
 * once the user has tried to save, then kept current as they type), the
 * server's errors under the inputs (each cleared when its input changes) and
 * a message for the whole form.
 */
export function useFormState<V extends object, K extends keyof V & string>(
  initial: V,
  validate: (values: V) => FormErrors<K>,
) {
  const [values, setValues] = useState<V>(initial);
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors<K>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const clientErrors: FormErrors<K> = attempted ? validate(values) : {};
  const errors: FormErrors<K> = { ...serverErrors, ...clientErrors };

  function set<F extends K>(field: F, value: V[F]) {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => {
      if (current[field] === undefined) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
  }

  /** Sets several values at once (e.g. a unit and the radius shown in it). */
  function update(next: V) {
    setValues(next);
    setServerErrors((current) => {
      const kept: FormErrors<K> = {};
      for (const [field, message] of Object.entries(current) as [K, string | undefined][]) {
        if (next[field] === values[field]) kept[field] = message;
      }
      return kept;
    });
  }

  /** Marks the form as submitted; true when the values pass the client-side checks. */
  function check(): boolean {
    setAttempted(true);
    setFormError(null);
    return isValid(validate(values));
  }

  /** Shows a failed save: the server's field messages under the inputs, the rest above the buttons. */
  function fail(error: unknown, keys: readonly K[], prefix = '') {
    const failure = saveFailure(error, keys, prefix);
    setServerErrors(failure.fields);
    setFormError(failure.message);
  }

  /** Starts again from new values (after a save that keeps the form open). */
  function reset(next: V) {
    setValues(next);
    setAttempted(false);
    setServerErrors({});
    setFormError(null);
  }

  return { values, set, update, errors, check, fail, formError, reset };
}

/** Moves the focus to the first input showing an error inside `root`, after React has drawn it. */
export function focusFirstError(root: HTMLElement | null): void {
  requestAnimationFrame(() => {
    const invalid = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  });
}
