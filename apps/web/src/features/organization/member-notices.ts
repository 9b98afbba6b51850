import type { TUserRegistration } from '@coldtrace/contract';

/*
 * What Manage Users says after registering or suspending someone (issue 34).
 */

/**
 * After the register form: an organization's administrator has sent an invitation (the
 * person joins only by accepting it); a server administrator has added them directly.
 */
export function registrationNotice(
  reply: TUserRegistration,
  typedEmail: string,
  organizationName: string,
): string {
  if (reply.status === 'added' && reply.user) {
    return `${reply.user.username} is added to ${organizationName}.`;
  }
  const email = reply.invitation?.email ?? typedEmail;
  return `Invitation sent to ${email}. They become a member when they accept it.`;
}

/** After Suspend or Reactivate: the membership of the session organization only. */
export function suspensionNotice(
  username: string,
  suspended: boolean,
  organizationName: string,
): string {
  return suspended
    ? `${username}'s membership is suspended: they can no longer act in ${organizationName}.`
    : `${username} is active again in ${organizationName}.`;
}
