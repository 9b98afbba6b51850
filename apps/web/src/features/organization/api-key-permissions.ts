import type { TRole } from '@coldtrace/contract';

/**
 * An API key's permissions in words for its list: the role whose permissions
 * they are exactly ('Same as Manager'), else how many there are.
 */
export function permissionsText(
  permissions: readonly string[],
  roles: readonly TRole[] = [],
): string {
  const held = new Set(permissions);
  const role = roles.find(
    (r) => r.permission_names.length === held.size && r.permission_names.every((p) => held.has(p)),
  );
  if (role) return `Same as ${role.name}`;
  return `${permissions.length} permission${permissions.length === 1 ? '' : 's'}`;
}
