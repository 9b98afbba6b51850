import { allCalls, BUILT_IN_ROLES, type CallDef } from '@coldtrace/contract';

/**
 * docs/permissions.md, generated from the contract: every call with the
 * credentials it takes, the permission it needs (any one of a list) and the
 * built-in roles that hold it. `test/permissions-doc.test.ts` fails when the
 * committed file is stale; `npx tsx apps/server/scripts/write-permissions.ts`
 * rewrites it.
 */

const ROLE_NAMES = Object.keys(BUILT_IN_ROLES);

const CREDENTIALS: Record<CallDef['auth'], string> = {
  public: 'anyone',
  session: 'session cookie or user token',
  device: 'user token only',
  key: 'user token or API key',
};

/** The credentials a call takes: its authentication kind, and an API key where the contract allows one. */
function credentialsCell(call: CallDef): string {
  const base = CREDENTIALS[call.auth];
  if (call.apiKey === undefined || call.auth === 'key') return base;
  const key = call.apiKey === 'read' ? 'API key (read-only too)' : 'API key (not read-only)';
  return `${base}, or ${key}`;
}

function permissionCell(call: CallDef): string {
  const needed =
    call.permission === undefined
      ? []
      : typeof call.permission === 'string'
        ? [call.permission]
        : [...call.permission];
  const parts: string[] = [];
  if (call.serverAdmin === 'only') parts.push('server administrator');
  if (needed.length > 0) parts.push(needed.map((p) => `\`${p}\``).join(' or '));
  if (call.serverAdmin === 'also') parts.push('(or server administrator)');
  if (parts.length === 0) return call.auth === 'public' ? '—' : 'signed in (own data only)';
  return parts.join(' ');
}

function rolesCell(call: CallDef): string {
  if (call.serverAdmin === 'only') return 'none (server administrators only)';
  const needed =
    call.permission === undefined
      ? null
      : typeof call.permission === 'string'
        ? [call.permission]
        : [...call.permission];
  if (needed === null) return call.auth === 'public' ? 'everyone' : 'all';
  const holders = ROLE_NAMES.filter((role) =>
    needed.some((p) => (BUILT_IN_ROLES[role] as readonly string[]).includes(p)),
  );
  return holders.length > 0 ? holders.join(', ') : 'none';
}

/**
 * The OpenAPI description of a call: the contract's description (or, when it
 * has none, its summary), then who may make it, from the same cells as
 * docs/permissions.md.
 */
export function operationDescription(call: CallDef): string {
  const what = call.description ?? `${call.summary}.`;
  const permission = permissionCell(call);
  const roles = rolesCell(call);
  const who =
    call.auth === 'public'
      ? 'Anyone may make this call.'
      : `Credentials: ${credentialsCell(call)}. Permission: ${permission}.` +
        (roles === 'all' || call.serverAdmin === 'only'
          ? ''
          : ` Built-in roles holding it: ${roles}.`);
  return `${what}\n\n${who}`;
}

export function permissionsTable(
  calls: readonly CallDef[] = allCalls as readonly CallDef[],
): string {
  const rows = [...calls]
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    .map(
      (c) =>
        `| ${c.method} | \`${c.path}\` | ${credentialsCell(c)} | ${permissionCell(c)} | ${rolesCell(c)} |`,
    );
  const roleRows = ROLE_NAMES.map(
    (role) => `| ${role} | ${BUILT_IN_ROLES[role]!.map((p) => `\`${p}\``).join(', ')} |`,
  );
  return [
    '# Permissions of every call',
    '',
    '<!-- Generated from the contract (allCalls, BUILT_IN_ROLES) by',
    '     `npx tsx apps/server/scripts/write-permissions.ts`; apps/server/test/permissions-doc.test.ts',
    '     fails when this file is stale. Do not edit by hand. -->',
    '',
    'Every call works in the organization of the session (or of the token or API key): another',
    "organization's ids answer 404. The permission is checked in that organization; a list means",
    'any one of them. `apps/server/test/route-walk*.test.ts` walk this whole table as an anonymous',
    "visitor, a Viewer, another organization's Administrator (session and token) and with another",
    "organization's API keys (full and read-only). An API key authenticates only the calls whose",
    'credentials name it (`apiKey` in the contract; docs/decisions/api-keys.md): a read-only key',
    'only those marked “read-only too”. A key never signs.',
    '',
    '| Method | Path | Credentials | Permission | Built-in roles holding it |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    '## Built-in roles',
    '',
    '| Role | Permissions |',
    '|---|---|',
    ...roleRows,
    '',
    'Server administrators (`is_server_admin`) are a flag on the user, not a role: they alone',
    'create organizations, list every organization and user, and publish the terms of use and',
    'the privacy policy. An API key never acts as a server administrator.',
    '',
  ].join('\n');
}

/** The table as committed: formatted by prettier like every Markdown file of the repository. */
export async function formattedPermissionsTable(file: string): Promise<string> {
  // Imported here: prettier is a dev dependency, and the server imports this module for
  // `operationDescription` (a production install has no prettier).
  const { format, resolveConfig } = await import('prettier');
  const options = (await resolveConfig(file)) ?? {};
  return format(permissionsTable(), { ...options, filepath: file });
}
