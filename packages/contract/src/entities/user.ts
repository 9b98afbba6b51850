import { z } from 'zod';
import { ZDegreesUnit } from '../enums';
import { ZOrg } from './org';
import { secondFactorCodeShape } from './second-factor';

/** Session token: token, created, expiry. */
export const ZSessionToken = z.object({
  token: z.string(),
  created: z.string(),
  expiry: z.string(),
});
export type TSessionToken = z.infer<typeof ZSessionToken>;

/** Login credentials: email_or_username, password. */
export const ZLoginCredentials = z.object({
  email_or_username: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
  /** An administrator's second factor, when an organization they administer requires it. */
  ...secondFactorCodeShape,
});
export type TLoginCredentials = z.infer<typeof ZLoginCredentials>;

/** Role membership: id, role_id, role_name, organization_id. */
export const ZRoleMembership = z
  .object({
    id: z.string(),
    role_id: z.string(),
    role_name: z.string(),
    organization_id: z.string(),
  })
  .meta({ id: 'RoleMembership' });
export type TRoleMembership = z.infer<typeof ZRoleMembership>;

/** Role: id, name, permission_names, created_by_organization_id (all required). */
export const ZRole = z
  .object({
    id: z.string(),
    name: z.string(),
    permission_names: z.array(z.string()),
    created_by_organization_id: z.string().nullable(),
  })
  .meta({ id: 'Role' });
export type TRole = z.infer<typeof ZRole>;

/** User and role pair. */
export const ZUserRolePair = z.object({ user_id: z.string(), role_id: z.string() });
export type TUserRolePair = z.infer<typeof ZUserRolePair>;

/** User settings: degrees_unit (C or F), timezone. */
export const ZUserSettings = z
  .object({ degrees_unit: ZDegreesUnit, timezone: z.string() })
  .meta({ id: 'UserSettings' });
export type TUserSettings = z.infer<typeof ZUserSettings>;

/** The user-settings upload: degrees_unit or timezone (at least one). */
export const ZUserSettingsUpdate = z
  .object({
    degrees_unit: ZDegreesUnit.optional(),
    timezone: z.string().min(1).max(64).optional(),
  })
  .refine((v) => v.degrees_unit !== undefined || v.timezone !== undefined, {
    message: "Give 'degrees_unit' or 'timezone'",
    path: ['degrees_unit'],
  });
export type TUserSettingsUpdate = z.infer<typeof ZUserSettingsUpdate>;

/** Organization-level user settings: lists of organization ids. */
export const ZOrgLevelUserSettings = z
  .object({
    alarm_notify_my_scans_orgs: z.array(z.string()),
    alarm_notify_any_scans_orgs: z.array(z.string()),
  })
  .meta({ id: 'OrgLevelUserSettings' });
export type TOrgLevelUserSettings = z.infer<typeof ZOrgLevelUserSettings>;

/** Per-organization upload form of the organization-level user settings. */
export const ZOrgLevelUserSettingsUpdate = z.object({
  alarm_notify_my_scans: z.boolean(),
  alarm_notify_any_scans: z.boolean(),
});
export type TOrgLevelUserSettingsUpdate = z.infer<typeof ZOrgLevelUserSettingsUpdate>;

/** User (full). Required: id, username, role_memberships, current_session_permissions, settings, org_settings, has_agreed_to_tos. */
export const ZUser = z
  .object({
    id: z.string(),
    username: z.string(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    email: z.string().optional(),
    date_joined: z.string().optional(),
    organizations: z.array(ZOrg).optional(),
    role_memberships: z.array(ZRoleMembership),
    current_session_permissions: z.array(z.string()),
    last_session_org_id: z.string().nullable().optional(),
    settings: ZUserSettings,
    org_settings: ZOrgLevelUserSettings,
    has_agreed_to_tos: z.boolean(),
    is_locked: z.boolean().optional(),
    /** Ours: holds the server administration page (domain rules, section 7). */
    is_server_admin: z.boolean().optional(),
  })
  .meta({ id: 'User' });
export type TUser = z.infer<typeof ZUser>;

/** User (small): in the list, id and username are required. */
export const ZUserSmall = z
  .object({
    id: z.string(),
    username: z.string(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    email: z.string().optional(),
    date_joined: z.string().optional(),
    /** Locked platform-wide by a server administrator (signed out, cannot sign in). */
    is_locked: z.boolean().optional(),
    /**
     * Ours (issue 34): the membership in the session organization is suspended by its
     * administrator; the person keeps their account and other memberships.
     */
    is_suspended: z.boolean().optional(),
    role_memberships: z.array(ZRoleMembership).optional(),
  })
  .meta({ id: 'UserSmall' });
export type TUserSmall = z.infer<typeof ZUserSmall>;

/** User register form: all six fields required. */
export const ZUserRegister = z.object({
  username: z.string().trim().min(1).max(150),
  first_name: z.string().trim().min(1).max(150),
  last_name: z.string().trim().min(1).max(150),
  email: z.email().max(254),
  organization_id: z.string().min(1),
  role_id: z.string().min(1),
});
export type TUserRegister = z.infer<typeof ZUserRegister>;

/** Password change: all three required. */
export const ZPasswordChange = z.object({
  old_password: z.string().min(1),
  new_password: z.string().min(1),
  new_password_confirm: z.string().min(1),
});
export type TPasswordChange = z.infer<typeof ZPasswordChange>;

/** Password reset request: email. */
export const ZPasswordResetRequest = z.object({ email: z.string().trim().min(1).max(254) });
export type TPasswordResetRequest = z.infer<typeof ZPasswordResetRequest>;

/** Password reset confirm: uuid, token, new_password. */
export const ZPasswordResetConfirm = z.object({
  uuid: z.string().min(1),
  token: z.string().min(1),
  new_password: z.string().min(1),
});
export type TPasswordResetConfirm = z.infer<typeof ZPasswordResetConfirm>;

/** Terms of service: id, active, content, version. */
export const ZTermsOfService = z
  .object({
    id: z.string(),
    active: z.boolean(),
    content: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'TermsOfService' });
export type TTermsOfService = z.infer<typeof ZTermsOfService>;

/** Content-only form of terms (and privacy policy). */
export const ZContentForm = z.object({ content: z.string().min(1).max(200_000) });
export type TContentForm = z.infer<typeof ZContentForm>;

export const ZPrivacyPolicy = z.object({ content: z.string() }).meta({ id: 'PrivacyPolicy' });
export type TPrivacyPolicy = z.infer<typeof ZPrivacyPolicy>;

/** Terms-of-service agreement: the terms id. */
export const ZTosAgreement = z.object({ id: z.string().min(1) });
export type TTosAgreement = z.infer<typeof ZTosAgreement>;
