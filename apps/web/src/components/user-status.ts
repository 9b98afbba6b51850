import type { TUserSmall } from '@coldtrace/contract';

export type UserStatus = 'Locked' | 'Suspended' | 'Active';

type StatusFields = Pick<TUserSmall, 'is_locked' | 'is_suspended'>;

/**
 * What a user list says of a person (issue 34): locked platform-wide by a server
 * administrator, their membership of the session organization suspended, both, or
 * neither (Active).
 */
export function userStatuses(user: StatusFields): UserStatus[] {
  const found: UserStatus[] = [];
  if (user.is_locked) found.push('Locked');
  if (user.is_suspended) found.push('Suspended');
  return found.length > 0 ? found : ['Active'];
}

/** Sort order of the status column: active first, then suspended, locked, both. */
export function userStatusRank(user: StatusFields): number {
  return (user.is_locked ? 2 : 0) + (user.is_suspended ? 1 : 0);
}
