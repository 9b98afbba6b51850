import {
  SECOND_FACTOR_CODE_REQUIRED_MESSAGE,
  SECOND_FACTOR_NOT_ENROLLED_MESSAGE,
  type TRecoveryCodes,
  type TSecondFactorEnrolment,
  type TSecondFactorKind,
  type TSecondFactorReset,
  type TSecondFactorResetDone,
  type TSecondFactorStatus,
} from '@coldtrace/contract';
import type { RuntimeConfig } from '../../../config';
import type { Database } from '../../../db/client';
import type { UserRow } from '../../../db/schema';
import { actorOf, recordAudit, type AuditActor } from '../../../kernel/audit';
import { AppError, notFound } from '../../../kernel/errors';
import { isUuid } from '../../../kernel/ids';
import type { Principal } from '../../../kernel/principal';
import { openSecret, sealSecret } from '../../../kernel/secret-box';
import {
  createPasswordGuard,
  throttledError,
  type PasswordClient,
  type PasswordGuard,
} from '../auth/throttle';
import type { PasswordHasher } from '../auth/passwords';
import { listMemberships } from '../auth/repository';
import * as repo from './repository';
import { releaseCodeAttempt, reserveCodeAttempt } from './throttle';
import {
  acceptedStep,
  isTotpShaped,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  qrCodeDataUrl,
  recoveryCodeHash,
} from './totp';

/**
 * A signer's second factor (issue 37 item 7; docs/decisions/second-factor.md):
 * enrolment on the user's own profile, the check of a code at a signature and
 * at an administrator's sign-in, recovery codes. Every enrolment, removal,
 * recovery-code use and failure is an audit entry: at a signature in the
 * signing organization, otherwise in every organization of the user (the
 * factor is the account's; each organization it signs in sees what became of it).
 */

const SECRET_PURPOSE = 'coldtrace totp secrets v1';
const WRONG_CODE = 'The code is not correct.';
const REPLAYED_CODE = 'This code was already used: wait for the next one.';
const WRONG_PASSWORD = 'The password is not correct.';

export interface SecondFactorDeps {
  db: Database;
  config: RuntimeConfig;
  passwords: PasswordHasher;
}

/** Who gives the code and where its use and failures are audited. */
interface CodeContext {
  user: UserRow;
  actor: AuditActor;
  organizationIds: readonly string[];
  /** What the code is for, in the audit entry's reason: "signature", "sign-in", "disable"... */
  purpose: string;
  requestId?: string | null | undefined;
}

const codeError = (message: string) =>
  new AppError('INVALID_CREDENTIALS', message, { second_factor_code: message });

const conflict = (message: string) => new AppError('CONFLICT', message, { code: message });

/** The stored TOTP secret; a 409, not a 500, when SECRET_KEY changed since it was enrolled. */
const secretOf = (config: RuntimeConfig, stored: string) => {
  try {
    return openSecret(config.secretKey, SECRET_PURPOSE, stored);
  } catch {
    const message =
      "Your second factor can no longer be read (the server's secret key changed): " +
      'it must be removed and enrolled again; ask a server administrator.';
    throw new AppError('CONFLICT', message, { second_factor_code: message });
  }
};

async function audit(
  db: Database,
  context: Omit<CodeContext, 'purpose' | 'user'> & { user: { id: string } },
  action: string,
  reason: string,
): Promise<void> {
  for (const organizationId of context.organizationIds) {
    await recordAudit(
      db,
      { organizationId, actor: context.actor, requestId: context.requestId ?? null },
      [{ action, entityType: 'user', entityId: context.user.id, reason }],
    );
  }
}

/**
 * Checks `code` (an authenticator code or a recovery code) of the user's
 * factor, throttled; a TOTP code is accepted once (its step is recorded), a
 * recovery code once (it is marked used). `totpOnly`: confirming an enrolment.
 */
async function checkCode(
  db: Database,
  config: RuntimeConfig,
  context: CodeContext,
  code: string,
  options: { totpOnly?: boolean; enable?: boolean } = {},
): Promise<TSecondFactorKind> {
  const factor = await repo.findFactor(db, context.user.id);
  if (!factor) throw conflict('No authenticator is enrolled.');
  const now = new Date();
  const reservation = await reserveCodeAttempt(db, config, context.user.id, now);
  if ('retryAfterMs' in reservation) {
    await audit(
      db,
      context,
      'second_factor.locked',
      `Refused (too many wrong codes): ${context.purpose}`,
    );
    const seconds = Math.max(1, Math.ceil(reservation.retryAfterMs / 1000));
    throw throttledError(seconds, 'Too many wrong codes.', {
      second_factor_code: 'Too many wrong codes',
    });
  }
  let kind: TSecondFactorKind | null = null;
  let failure = WRONG_CODE;
  if (isTotpShaped(code)) {
    const secret = secretOf(config, factor.secretEncrypted);
    const step = await acceptedStep(secret, code, factor.lastUsedStep, now);
    if (step !== null && (await repo.useStep(db, context.user.id, step, now, options.enable))) {
      kind = 'totp';
    } else if ((await acceptedStep(secret, code, null, now)) !== null) {
      failure = REPLAYED_CODE;
    }
  } else if (!options.totpOnly && factor.enabledAt !== null) {
    const hash = recoveryCodeHash(config.secretKey, code);
    if (await repo.useRecoveryCode(db, context.user.id, hash, now)) kind = 'recovery_code';
  }
  if (kind === null) {
    await audit(db, context, 'second_factor.failure', `${failure} (${context.purpose})`);
    throw codeError(failure);
  }
  await releaseCodeAttempt(db, reservation);
  if (kind === 'recovery_code') {
    const left = await repo.unusedRecoveryCodes(db, context.user.id);
    await audit(
      db,
      context,
      'second_factor.recovery_code.use',
      `Recovery code used (${context.purpose}); ${left} left`,
    );
  }
  return kind;
}

async function checkPassword(
  passwords: PasswordHasher,
  guard: PasswordGuard,
  user: UserRow,
  password: string,
  client: PasswordClient,
) {
  const result = await guard.attempt(
    { user },
    client,
    () => passwords.verify(user.passwordHash, password),
    (seconds) =>
      throttledError(seconds, 'Too many wrong passwords.', {
        password: 'Too many wrong passwords',
      }),
  );
  if (!result.ok) {
    throw new AppError('INVALID_CREDENTIALS', WRONG_PASSWORD, { password: WRONG_PASSWORD });
  }
}

async function accountContext(
  db: Database,
  principal: Principal,
  purpose: string,
): Promise<CodeContext> {
  return {
    user: principal.user,
    actor: actorOf(principal),
    organizationIds: await repo.organizationsOf(db, principal.user.id),
    purpose,
  };
}

async function enabledFactor(db: Database, userId: string) {
  const factor = await repo.findFactor(db, userId);
  return factor?.enabledAt ? factor : undefined;
}

async function newCodes(
  db: Database,
  config: RuntimeConfig,
  userId: string,
): Promise<TRecoveryCodes> {
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(
    db,
    userId,
    codes.map((c) => recoveryCodeHash(config.secretKey, c)),
  );
  return { recovery_codes: codes };
}

async function status(db: Database, principal: Principal): Promise<TSecondFactorStatus> {
  const factor = await repo.findFactor(db, principal.user.id);
  const settings =
    principal.organizationId === null
      ? { forSigners: false, forAdministrators: false }
      : await repo.factorSettings(db, principal.organizationId);
  return {
    enabled: factor?.enabledAt != null,
    pending: factor !== undefined && factor.enabledAt === null,
    enabled_at: factor?.enabledAt?.toISOString() ?? null,
    recovery_codes_left: factor?.enabledAt
      ? await repo.unusedRecoveryCodes(db, principal.user.id)
      : 0,
    required_for_signing: settings.forSigners,
    required_for_administrators: settings.forAdministrators,
  };
}

/** A new secret (password again); nothing is asked for until `confirm`. */
async function start(
  db: Database,
  config: RuntimeConfig,
  passwords: PasswordHasher,
  guard: PasswordGuard,
  principal: Principal,
  password: string,
  client: PasswordClient,
): Promise<TSecondFactorEnrolment> {
  if (await enabledFactor(db, principal.user.id)) {
    throw conflict('An authenticator is already enrolled: disable it first to enrol another.');
  }
  await checkPassword(passwords, guard, principal.user, password, client);
  const secret = newTotpSecret();
  await repo.putPendingFactor(
    db,
    principal.user.id,
    sealSecret(config.secretKey, SECRET_PURPOSE, secret),
  );
  await audit(
    db,
    await accountContext(db, principal, 'enrolment'),
    'second_factor.enrol.start',
    'Enrolment of an authenticator app started',
  );
  const uri = otpauthUri(secret, principal.user.email || principal.user.username);
  return { secret, otpauth_uri: uri, qr_code: await qrCodeDataUrl(uri) };
}

/** The first code: the factor is active from now on; answers the recovery codes, shown once. */
async function confirm(
  db: Database,
  config: RuntimeConfig,
  principal: Principal,
  code: string,
): Promise<TRecoveryCodes> {
  const factor = await repo.findFactor(db, principal.user.id);
  if (!factor) throw conflict('Start the enrolment first.');
  if (factor.enabledAt) throw conflict('The authenticator is already enrolled.');
  const context = await accountContext(db, principal, 'enrolment');
  await checkCode(db, config, context, code, { totpOnly: true, enable: true });
  const codes = await newCodes(db, config, principal.user.id);
  await audit(db, context, 'second_factor.enable', 'Authenticator app enrolled (second factor on)');
  return codes;
}

/** New recovery codes (password and a current code); the old ones stop working. */
async function regenerate(
  db: Database,
  config: RuntimeConfig,
  passwords: PasswordHasher,
  guard: PasswordGuard,
  principal: Principal,
  proof: { password: string; code: string },
  client: PasswordClient,
): Promise<TRecoveryCodes> {
  if (!(await enabledFactor(db, principal.user.id)))
    throw conflict('No authenticator is enrolled.');
  await checkPassword(passwords, guard, principal.user, proof.password, client);
  const context = await accountContext(db, principal, 'new recovery codes');
  await checkCode(db, config, context, proof.code);
  const codes = await newCodes(db, config, principal.user.id);
  await audit(db, context, 'second_factor.recovery_codes.regenerate', 'New recovery codes');
  return codes;
}

/**
 * A server administrator removes another person's factor (their own password
 * and a reason), for someone who lost both the authenticator and the recovery
 * codes. Audited in each of the person's organizations, naming the administrator.
 */
async function resetFor(
  db: Database,
  passwords: PasswordHasher,
  guard: PasswordGuard,
  admin: Principal,
  body: TSecondFactorReset,
  client: PasswordClient,
): Promise<TSecondFactorResetDone> {
  const username = isUuid(body.user_id) ? await repo.findUsername(db, body.user_id) : undefined;
  if (username === undefined) {
    throw notFound(`User '${body.user_id}'`, 'user_id');
  }
  await checkPassword(passwords, guard, admin.user, body.password, client);
  if (!(await repo.findFactor(db, body.user_id))) {
    throw new AppError('CONFLICT', `${username} has no second factor enrolled.`, {
      user_id: 'no second factor',
    });
  }
  await repo.deleteFactor(db, body.user_id);
  await audit(
    db,
    {
      user: { id: body.user_id },
      actor: actorOf(admin),
      organizationIds: await repo.organizationsOf(db, body.user_id),
      requestId: null,
    },
    'second_factor.reset',
    `Second factor removed by a server administrator: ${body.reason}`,
  );
  return { user_id: body.user_id, username, second_factor_removed: true };
}

/** Removes the factor (password and a current code or a recovery code). */
async function disable(
  db: Database,
  config: RuntimeConfig,
  passwords: PasswordHasher,
  guard: PasswordGuard,
  principal: Principal,
  proof: { password: string; code: string },
  client: PasswordClient,
): Promise<TSecondFactorStatus> {
  if (!(await enabledFactor(db, principal.user.id)))
    throw conflict('No authenticator is enrolled.');
  await checkPassword(passwords, guard, principal.user, proof.password, client);
  const context = await accountContext(db, principal, 'disable');
  await checkCode(db, config, context, proof.code);
  await repo.deleteFactor(db, principal.user.id);
  await audit(
    db,
    context,
    'second_factor.disable',
    'Authenticator app removed (second factor off)',
  );
  return status(db, principal);
}

/**
 * Before a signature's password is checked: whether the signing organization
 * requires a factor, refusing when the signer has none (403) or sent no code
 * (400). Answers whether a code is to be checked after the password.
 */
async function precheckSignature(
  db: Database,
  principal: Principal,
  code: string | undefined,
): Promise<boolean> {
  const required =
    principal.organizationId !== null &&
    (await repo.factorSettings(db, principal.organizationId)).forSigners;
  if (!required) return code !== undefined;
  if (!(await enabledFactor(db, principal.user.id))) {
    throw new AppError('SECOND_FACTOR_NOT_ENROLLED', SECOND_FACTOR_NOT_ENROLLED_MESSAGE, {
      second_factor_code: SECOND_FACTOR_NOT_ENROLLED_MESSAGE,
    });
  }
  if (code === undefined) {
    throw new AppError('SECOND_FACTOR_REQUIRED', SECOND_FACTOR_CODE_REQUIRED_MESSAGE, {
      second_factor_code: SECOND_FACTOR_CODE_REQUIRED_MESSAGE,
    });
  }
  return true;
}

/** After the signature's password: the code, audited in the signing organization. */
async function checkSignatureCode(
  db: Database,
  config: RuntimeConfig,
  principal: Principal,
  code: string,
  requestId?: string,
): Promise<TSecondFactorKind> {
  if (!(await enabledFactor(db, principal.user.id))) {
    throw codeError('No authenticator is enrolled: sign with your password alone.');
  }
  return checkCode(
    db,
    config,
    {
      user: principal.user,
      actor: actorOf(principal),
      organizationIds: principal.organizationId === null ? [] : [principal.organizationId],
      purpose: 'signature',
      requestId,
    },
    code,
  );
}

/**
 * At sign-in, after the password: an enrolled administrator (sysAdminUser) of
 * an organization that requires it gives a code. One who has not enrolled yet
 * signs in (to enrol: there is no other way in) and is asked at every
 * signature their organizations require it for.
 */
async function checkSignIn(
  db: Database,
  config: RuntimeConfig,
  user: UserRow,
  code: string | undefined,
): Promise<TSecondFactorKind | null> {
  const administered = (await listMemberships(db, user.id))
    .filter((m) => m.permissionNames.includes('sysAdminUser'))
    .map((m) => m.organizationId);
  const requiring = await repo.requiringForAdministrators(db, administered);
  if (requiring.length === 0 || !(await enabledFactor(db, user.id))) return null;
  if (code === undefined) {
    throw new AppError('SECOND_FACTOR_REQUIRED', SECOND_FACTOR_CODE_REQUIRED_MESSAGE, {
      second_factor_code: SECOND_FACTOR_CODE_REQUIRED_MESSAGE,
    });
  }
  const actor = actorOf({ user, kind: 'session' });
  return checkCode(
    db,
    config,
    { user, actor, organizationIds: requiring, purpose: 'sign-in' },
    code,
  );
}

export function createSecondFactorService({ db, config, passwords }: SecondFactorDeps) {
  const guard = createPasswordGuard({ db, config });

  return {
    status: (principal: Principal) => status(db, principal),
    start: (principal: Principal, password: string, client: PasswordClient) =>
      start(db, config, passwords, guard, principal, password, client),
    confirm: (principal: Principal, code: string) => confirm(db, config, principal, code),
    regenerate: (
      principal: Principal,
      proof: { password: string; code: string },
      client: PasswordClient,
    ) => regenerate(db, config, passwords, guard, principal, proof, client),
    resetFor: (admin: Principal, body: TSecondFactorReset, client: PasswordClient) =>
      resetFor(db, passwords, guard, admin, body, client),
    disable: (
      principal: Principal,
      proof: { password: string; code: string },
      client: PasswordClient,
    ) => disable(db, config, passwords, guard, principal, proof, client),
    precheckSignature: (principal: Principal, code: string | undefined) =>
      precheckSignature(db, principal, code),
    checkSignatureCode: (principal: Principal, code: string, requestId?: string) =>
      checkSignatureCode(db, config, principal, code, requestId),
    checkSignIn: (user: UserRow, code: string | undefined) => checkSignIn(db, config, user, code),
  };
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
