import type { RuntimeConfig } from '../../../config';
import type { Database, Db } from '../../../db/client';
import type { UserRow } from '../../../db/schema';
import { AppError, forbidden, invalidField, notFound } from '../../../kernel/errors';
import { isUuid } from '../../../kernel/ids';
import { actorOf, changedFields as auditChanges, recordAudit } from '../../../kernel/audit';
import { revokeUserTokens } from '../password/tokens';
import { createSecondFactorService, type SecondFactorService } from '../second-factor/service';
import { newToken, sessionIdOf } from './cookies';
import { nextDeviceCookie } from './device-cookie';
import type { PasswordHasher } from './passwords';
import { chooseSessionOrganization, type Principal } from './principal';
import * as repo from './repository';
import { createPasswordGuard, throttledError, type PasswordGuard } from './throttle';
import { shownTimeZone, userTimeZone } from './time-zones';

export interface AuthDeps {
  db: Database;
  config: RuntimeConfig;
  passwords: PasswordHasher;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
  /** The session being replaced (its row is deleted: a new session id at every sign-in). */
  previousSessionId: string | undefined;
  /** The `deviceid` cookie as sent (a browser that signed in before). */
  deviceCookie: string | undefined;
}

export interface StartedSession {
  token: string;
  expiresAt: Date;
  principal: Principal;
}

const INVALID_CREDENTIALS = 'Unable to log in with provided credentials.';
const ACCOUNT_LOCKED = 'This account is locked. Contact your administrator.';

/**
 * Audit entries of a user's own settings change (one per changed field), in
 * the session's organization (the trail is per organization; a session
 * without one leaves none).
 */
async function auditSettings(
  tx: Db,
  principal: Principal,
  action: string,
  entityType: string,
  change: { before: Record<string, unknown>; after: Record<string, unknown> },
): Promise<void> {
  if (principal.organizationId === null) return;
  await recordAudit(
    tx,
    { organizationId: principal.organizationId, actor: actorOf(principal) },
    auditChanges(change.before, change.after, {
      action,
      entityType,
      entityId: principal.user.id,
    }),
  );
}

async function startSession(
  db: Database,
  config: RuntimeConfig,
  user: UserRow,
  client: ClientInfo,
): Promise<StartedSession> {
  const now = new Date();
  if (client.previousSessionId) await repo.deleteSession(db, client.previousSessionId);
  await repo.deleteExpiredSessions(db, user.id, now);
  const memberships = await repo.listMemberships(db, user.id);
  const chosen = chooseSessionOrganization(memberships, user.lastSessionOrgId);
  const token = newToken();
  const sessionId = sessionIdOf(token);
  const expiresAt = new Date(now.getTime() + config.sessionTtlHours * 3_600_000);
  await repo.insertSession(db, {
    id: sessionId,
    userId: user.id,
    organizationId: chosen?.organizationId ?? null,
    created: now,
    expiresAt,
    lastSeenAt: now,
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
  });
  let lastSessionOrgId = user.lastSessionOrgId;
  if (chosen && chosen.organizationId !== lastSessionOrgId) {
    lastSessionOrgId = chosen.organizationId;
    await repo.setLastSessionOrg(db, user.id, lastSessionOrgId);
  }
  return {
    token,
    expiresAt,
    principal: {
      kind: 'session',
      user: { ...user, lastSessionOrgId },
      organizationId: chosen?.organizationId ?? null,
      permissions: [...new Set(chosen?.permissionNames ?? [])],
      sessionId,
    },
  };
}

/**
 * Sign in by username or e-mail (case-insensitive). Throttled per device
 * cookie, or per account and client address (`throttle.ts`); an unknown
 * account costs the same time as a known one; a locked account is
 * reported only when the password was right. An administrator of an
 * organization requiring a second factor gives its code too (issue 37 item 7).
 * Answers the session and the browser's next device cookie.
 */
async function login(
  db: Database,
  config: RuntimeConfig,
  passwords: PasswordHasher,
  guard: PasswordGuard,
  secondFactor: SecondFactorService,
  input: { login: string; password: string; secondFactorCode?: string | undefined },
  client: ClientInfo,
): Promise<StartedSession & { deviceCookie: string }> {
  const user = await repo.findUserByLogin(db, input.login);
  const result = await guard.attempt(
    user ? { user } : { unknownLogin: input.login.trim().toLowerCase() },
    client,
    () =>
      user
        ? passwords.verify(user.passwordHash, input.password)
        : passwords.verifyNobody(input.password),
    (seconds) => throttledError(seconds, 'Too many failed sign-in attempts.'),
  );
  // A wrong password: the reserved attempt stays as the failure.
  if (!user || !result.ok) throw new AppError('INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  if (user.isLocked) throw new AppError('ACCOUNT_LOCKED', ACCOUNT_LOCKED);
  await secondFactor.checkSignIn(user, input.secondFactorCode);
  // Signing in proves the user knows the password: outstanding reset links die.
  await revokeUserTokens(db, user.id);
  const started = await startSession(db, config, user, client);
  return {
    ...started,
    deviceCookie: nextDeviceCookie(config.secretKey, client.deviceCookie, user),
  };
}

/** Sign in as the account PUBLIC_LOGIN_USER names; 404 when none is configured. */
async function publicLogin(
  db: Database,
  config: RuntimeConfig,
  client: ClientInfo,
): Promise<StartedSession> {
  if (config.publicLoginUser === undefined) throw notFound('Public login');
  const user = await repo.findUserByLogin(db, config.publicLoginUser);
  if (!user) throw notFound('Public login');
  if (user.isLocked) throw new AppError('ACCOUNT_LOCKED', ACCOUNT_LOCKED);
  return startSession(db, config, user, client);
}

async function logout(db: Database, sessionId: string | undefined): Promise<void> {
  if (sessionId) await repo.deleteSession(db, sessionId);
}

/** Switch the session organization; another organization's id (or a malformed one) answers 404. */
async function switchOrganization(
  db: Database,
  principal: Principal,
  organizationId: string,
): Promise<Principal> {
  if (principal.sessionId === null) {
    throw forbidden('Only a signed-in session can switch organization.');
  }
  const permissions = isUuid(organizationId)
    ? await repo.permissionsIn(db, principal.user.id, organizationId)
    : undefined;
  if (permissions === undefined) throw notFound('Organization');
  await repo.setSessionOrganization(db, principal.sessionId, principal.user.id, organizationId);
  return {
    ...principal,
    user: { ...principal.user, lastSessionOrgId: organizationId },
    organizationId,
    permissions,
  };
}

async function organizations(db: Database, principal: Principal) {
  const memberships = await repo.listMemberships(db, principal.user.id);
  return memberships.map((m) => ({ id: m.organizationId, name: m.organizationName }));
}

/** Organizations where the user holds sysAdminUser. */
async function adminOrganizations(db: Database, principal: Principal) {
  const memberships = await repo.listMemberships(db, principal.user.id);
  return memberships
    .filter((m) => m.permissionNames.includes('sysAdminUser'))
    .map((m) => ({ id: m.organizationId, name: m.organizationName }));
}

async function updateSettings(
  db: Database,
  principal: Principal,
  patch: { degrees_unit?: 'C' | 'F' | undefined; timezone?: string | undefined },
) {
  const update: { degreesUnit?: 'C' | 'F'; timezone?: string } = {};
  if (patch.degrees_unit !== undefined) update.degreesUnit = patch.degrees_unit;
  if (patch.timezone !== undefined) {
    // A zone outside the supported list is stored as UTC (spec section 5); no zone at all is a 400.
    const zone = userTimeZone(patch.timezone);
    if (zone === undefined) {
      throw invalidField('timezone', `Unknown time zone '${patch.timezone}'`);
    }
    update.timezone = zone;
  }
  const saved = await db.transaction(async (tx) => {
    const before = await repo.getUserSettings(tx, principal.user.id);
    const after = await repo.updateUserSettings(tx, principal.user.id, update);
    await auditSettings(tx, principal, 'user.settings.update', 'user_settings', {
      before: { degrees_unit: before.degreesUnit, timezone: before.timezone },
      after: { degrees_unit: after.degreesUnit, timezone: after.timezone },
    });
    return after;
  });
  return { degrees_unit: saved.degreesUnit, timezone: shownTimeZone(saved.timezone) };
}

/** Set the alarm e-mail flags of the session organization; answers the flags of every organization. */
async function updateOrgSettings(
  db: Database,
  organizationId: string,
  principal: Principal,
  flags: { alarm_notify_my_scans: boolean; alarm_notify_any_scans: boolean },
) {
  await db.transaction(async (tx) => {
    const current = (await repo.getOrgSettings(tx, principal.user.id)).find(
      (o) => o.organizationId === organizationId,
    );
    await repo.upsertOrgSettings(tx, principal.user.id, organizationId, {
      myScans: flags.alarm_notify_my_scans,
      anyScans: flags.alarm_notify_any_scans,
    });
    await auditSettings(tx, principal, 'user.notification_settings.update', 'user_org_settings', {
      before: {
        alarm_notify_my_scans: current?.myScans ?? false,
        alarm_notify_any_scans: current?.anyScans ?? false,
      },
      after: flags,
    });
  });
  return repo.getOrgSettings(db, principal.user.id);
}

export function createAuthService({ db, config, passwords }: AuthDeps) {
  const guard = createPasswordGuard({ db, config });
  const secondFactor = createSecondFactorService({ db, config, passwords });

  return {
    startSession: (user: UserRow, client: ClientInfo) => startSession(db, config, user, client),
    login: (
      input: { login: string; password: string; secondFactorCode?: string | undefined },
      client: ClientInfo,
    ) => login(db, config, passwords, guard, secondFactor, input, client),
    publicLogin: (client: ClientInfo) => publicLogin(db, config, client),
    logout: (sessionId: string | undefined) => logout(db, sessionId),
    switchOrganization: (principal: Principal, organizationId: string) =>
      switchOrganization(db, principal, organizationId),
    organizations: (principal: Principal) => organizations(db, principal),
    adminOrganizations: (principal: Principal) => adminOrganizations(db, principal),
    updateSettings: (
      principal: Principal,
      patch: { degrees_unit?: 'C' | 'F' | undefined; timezone?: string | undefined },
    ) => updateSettings(db, principal, patch),
    updateOrgSettings: (
      organizationId: string,
      principal: Principal,
      flags: { alarm_notify_my_scans: boolean; alarm_notify_any_scans: boolean },
    ) => updateOrgSettings(db, organizationId, principal, flags),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
