/**
 * A sentence another page hands the login page through the navigation state (e.g. after
 * an invitation created the account): shown above the form, never in the URL.
 */
export interface LoginNoticeState {
  loginNotice: string;
}

export function loginNoticeState(text: string): LoginNoticeState {
  return { loginNotice: text };
}

/** The notice in a location's state, if any. */
export function loginNotice(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const text = (state as Partial<LoginNoticeState>).loginNotice;
  return typeof text === 'string' && text !== '' ? text : null;
}
