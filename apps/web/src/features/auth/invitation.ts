import type { TInvitationView } from '@coldtrace/contract';
import { isApiError } from '../../lib/api-error';
import { checkNewPassword } from './new-password';

/*
 * The invitation page's pure parts (issue 34): what it says, the form that creates the
 * invited account, and how it tells a dead link from another failure.
 */

/** The sentence at the top of the page. */
export function invitationSentence(view: TInvitationView): string {
  return `${view.invited_by} invited you to join ${view.organization_name} as ${view.role_name}.`;
}

export type InvitationField =
  'username' | 'first_name' | 'last_name' | 'new_password' | 'new_password_confirm';

export type InvitationFormValues = Record<InvitationField, string>;
export type InvitationFormErrors = Partial<Record<InvitationField, string>>;

const FIELDS: readonly InvitationField[] = [
  'username',
  'first_name',
  'last_name',
  'new_password',
  'new_password_confirm',
];

/** The form as the invitation suggests it: the administrator's username and names. */
export function invitationFormFrom(view: TInvitationView): InvitationFormValues {
  return {
    username: view.username,
    first_name: view.first_name,
    last_name: view.last_name,
    new_password: '',
    new_password_confirm: '',
  };
}

/** Client-side checks (the welcome page's for the password); nothing is sent while any applies. */
export function checkInvitationForm(values: InvitationFormValues): InvitationFormErrors {
  const errors: InvitationFormErrors = {};
  if (!values.username.trim()) errors.username = 'Enter a username.';
  if (!values.first_name.trim()) errors.first_name = 'Enter your first name.';
  if (!values.last_name.trim()) errors.last_name = 'Enter your last name.';
  return { ...errors, ...checkNewPassword(values.new_password, values.new_password_confirm) };
}

/** The server's messages for the form's own fields (a taken username, a weak password). */
export function invitationFieldErrors(
  fields: Readonly<Record<string, string>>,
): InvitationFormErrors {
  return Object.fromEntries(FIELDS.filter((f) => fields[f]).map((f) => [f, fields[f]]));
}

/**
 * The server's sentence when the link cannot be used (invalid, expired, revoked or used):
 * a 400 naming the token (or, when checking the link, any 400: the link itself is at
 * fault). Null for any other failure.
 */
export function deadLinkMessage(error: unknown, anyBadRequest = false): string | null {
  if (!isApiError(error) || error.status !== 400) return null;
  return error.fields.token ?? (anyBadRequest ? error.message : null);
}
