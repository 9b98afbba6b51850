import { z } from 'zod';
import { defineCall } from '../call';
import { ZApiKey, ZApiKeyCreated } from '../entities/keys';
import { ZOrg, ZOrgCreate } from '../entities/org';
import { ZTagAssignmentResult } from '../entities/tags';
import { ZUserRegistration } from '../entities/invitation';
import { ZRole, ZUserRegister, ZUserSmall } from '../entities/user';

/**
 * Administration calls of issue 5: Manage Users, API keys, Assign Tags and
 * server administration. Paths the spec does not give (lock, the server's
 * organization list) are ours; see `docs/decisions/administration.md`.
 */

/** A query flag: `true`/`1` or `false`/`0` (query strings carry text). */
const queryFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

export const ZUsersListQuery = z.object({ server_admin: queryFlag });

export const authUsersList = defineCall({
  operationId: 'authUsersList',
  method: 'GET',
  path: '/api/auth/users/',
  summary:
    'The users of the session organization; with server_admin=true, every user of every organization (server administrators only)',
  tag: 'users',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  serverAdmin: 'also',
  query: ZUsersListQuery,
  reply: z.array(ZUserSmall),
});

export const authUsersRegister = defineCall({
  operationId: 'authUsersRegister',
  method: 'POST',
  path: '/api/auth/users/',
  summary:
    "Invite a person to an organization the caller administers, with a role of that organization: the reply is the same invitation whether or not the address has an account, and the person becomes a member only by accepting it. A server administrator adds the person directly (status 'added')",
  tag: 'users',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  serverAdmin: 'also',
  body: ZUserRegister,
  reply: ZUserRegistration,
});

/** "user_id and the role membership": the role (of the session organization) that replaces the user's. */
export const ZUserRoleChange = z.object({
  user_id: z.string().min(1),
  role_id: z.string().min(1),
});
export type TUserRoleChange = z.infer<typeof ZUserRoleChange>;

export const authUserRoles = defineCall({
  operationId: 'authUserRoles',
  method: 'PATCH',
  path: '/api/auth/user-roles/',
  summary: "Replace a member's role in the session organization (audited)",
  tag: 'users',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  body: ZUserRoleChange,
  reply: ZUserSmall,
});

export const ZUserLock = z.object({
  user_id: z.string().min(1),
  is_locked: z.boolean(),
});
export type TUserLock = z.infer<typeof ZUserLock>;

export const authUserLock = defineCall({
  operationId: 'authUserLock',
  method: 'POST',
  path: '/api/auth/user-lock/',
  summary:
    "Lock or unlock an account platform-wide (server administrators; audited in each of the person's organizations); locking ends the user's sessions and tokens at once",
  tag: 'server-admin',
  auth: 'session',
  scope: 'server',
  serverAdmin: 'only',
  body: ZUserLock,
  reply: ZUserSmall,
});

export const ZUserSuspend = z.object({
  user_id: z.string().min(1),
  is_suspended: z.boolean(),
});
export type TUserSuspend = z.infer<typeof ZUserSuspend>;

export const authUserSuspend = defineCall({
  operationId: 'authUserSuspend',
  method: 'POST',
  path: '/api/auth/user-suspend/',
  summary:
    "Suspend or reactivate a member's membership of the session organization (audited): while suspended their sessions, tokens and API keys cannot act there; their account and other memberships are untouched",
  tag: 'users',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  body: ZUserSuspend,
  reply: ZUserSmall,
});

export const authRolePermissions = defineCall({
  operationId: 'authRolePermissions',
  method: 'GET',
  path: '/api/auth/role-permissions/',
  summary: 'The roles of the session organization with their permission names',
  tag: 'users',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  reply: z.array(ZRole),
});

export const authOrgsCreate = defineCall({
  operationId: 'authOrgsCreate',
  method: 'POST',
  path: '/api/auth/orgs/',
  summary:
    'Create an organization with the built-in roles (server administrators); the creator becomes its Administrator',
  tag: 'server-admin',
  auth: 'session',
  scope: 'server',
  serverAdmin: 'only',
  body: ZOrgCreate,
  reply: ZOrg,
});

/** "Organization-level record: id, user_ids, num_devices, num_records, latest_activity, settings, created, name." */
export const ZOrgLevelRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    created: z.string(),
    user_ids: z.array(z.string()),
    num_devices: z.number().int(),
    num_records: z.number().int(),
    latest_activity: z.string().nullable(),
    settings: z.object({ id: z.string() }).nullable().optional(),
  })
  .meta({ id: 'OrgLevelRecord' });
export type TOrgLevelRecord = z.infer<typeof ZOrgLevelRecord>;

export const serverAdminOrgs = defineCall({
  operationId: 'serverAdminOrgs',
  method: 'GET',
  path: '/api/auth/server-orgs/',
  summary: 'Every organization with its user, device and record counts (server administrators)',
  tag: 'server-admin',
  auth: 'session',
  scope: 'server',
  serverAdmin: 'only',
  reply: z.array(ZOrgLevelRecord),
});

// ---------------------------------------------------------------- API keys

export const ZApiKeyGenerate = z.object({
  name: z.string().trim().min(1).max(100),
  /** A role of the session organization whose permissions the key gets; default the creator's role. */
  role_id: z.string().min(1).optional(),
  /** A read-only key makes only the calls marked for reading (issue 15); default false. */
  read_only: z.boolean().optional(),
});
export type TApiKeyGenerate = z.infer<typeof ZApiKeyGenerate>;

export const keysList = defineCall({
  operationId: 'keysList',
  method: 'GET',
  path: '/api/keys/generate/',
  summary: "The session organization's live API keys (prefix, never the secret)",
  tag: 'keys',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  reply: z.array(ZApiKey),
});

export const keysGenerate = defineCall({
  operationId: 'keysGenerate',
  method: 'POST',
  path: '/api/keys/generate/',
  summary:
    'Generate an API key for the session organization; private_key is shown in this reply only (only its SHA-256 is stored)',
  tag: 'keys',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  body: ZApiKeyGenerate,
  reply: ZApiKeyCreated,
});

export const ZApiKeyRevoke = z.object({ prefix: z.string().trim().min(1).max(32) });
export type TApiKeyRevoke = z.infer<typeof ZApiKeyRevoke>;

export const keysRevoke = defineCall({
  operationId: 'keysRevoke',
  method: 'POST',
  path: '/api/keys/revoke/',
  summary:
    'Revoke an API key of the session organization by its prefix (204); it stops working at once',
  tag: 'keys',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAdminUser',
  body: ZApiKeyRevoke,
  reply: null,
});

/** Who the presented credentials are: the key authentication reply. */
export const ZKeyAuthentication = z
  .object({
    kind: z.enum(['token', 'api-key']),
    organization: ZOrg,
    permissions: z.array(z.string()),
    /** The key's prefix (API keys only). */
    prefix: z.string().optional(),
  })
  .meta({ id: 'KeyAuthentication' });
export type TKeyAuthentication = z.infer<typeof ZKeyAuthentication>;

export const keysAuthenticate = defineCall({
  operationId: 'keysAuthenticate',
  method: 'POST',
  path: '/api/keys/authenticate/',
  summary:
    'Check a token (`Authorization: Token`) or an API key (`Authorization: Api-Key` or `X-Api-Key`): its organization and permissions',
  tag: 'keys',
  auth: 'key',
  scope: 'organization',
  apiKey: 'read',
  reply: ZKeyAuthentication,
});

// ---------------------------------------------------------------- tag assignment

/** The tag assignment request with both fields required (spec section 5, "Missing call parameters"). */
export const ZTagAssignmentUpload = z.object({
  organization_id: z.string().min(1),
  tag_ids: z.array(z.string().max(200)).min(1).max(1000),
});
export type TTagAssignmentUpload = z.infer<typeof ZTagAssignmentUpload>;

export const xt1AssignTags = defineCall({
  operationId: 'xt1AssignTags',
  method: 'POST',
  path: '/api/devices/xt1/admin/assign-tags/',
  summary:
    'Assign tags (tag ids or serial numbers) to an organization where the caller holds sysAssignTags; unknown serial numbers are created there; failed entries come back in failed_ids',
  tag: 'devices',
  auth: 'session',
  scope: 'organization',
  permission: 'sysAssignTags',
  body: ZTagAssignmentUpload,
  reply: ZTagAssignmentResult,
});

export const adminCalls = [
  authUsersList,
  authUsersRegister,
  authUserRoles,
  authUserLock,
  authUserSuspend,
  authRolePermissions,
  authOrgsCreate,
  serverAdminOrgs,
  keysList,
  keysGenerate,
  keysRevoke,
  keysAuthenticate,
  xt1AssignTags,
] as const;
