import type { FastifyInstance } from 'fastify';
import type { RuntimeConfig } from '../../../config';
import type { Database } from '../../../db/client';
import type { UserRow } from '../../../db/schema';
import { AppError } from '../../../kernel/errors';
import { PASSWORD_RESET_JOB, publish } from '../../../jobs/catalogue';
import { isUuid } from '../../../kernel/ids';
import {
  clearAccountFailures,
  failureStats,
  forgetAttemptsBefore,
  lockAttemptKeys,
  recordAttempts,
  type AttemptKey,
} from '../auth/repository';
import type { Principal } from '../../../kernel/principal';
import {
  createPasswordGuard,
  FAILURE_MEMORY_MS,
  throttledError,
  type PasswordClient,
  type PasswordGuard,
} from '../auth/throttle';
import type { PasswordHasher } from '../auth/passwords';
import { queueMail } from '../../mail';
import { passwordLink } from './links';
import * as repo from './repository';
import { passwordProblem } from './rules';
import { revokeUserCredentials } from '../tokens/service';
import { consumeToken, issueToken, revokeUserTokens, tokenIsValid } from './tokens';
import { escapeHtml, htmlMail } from './welcome';

const INVALID_LINK =
  'This link is invalid, has expired or was already used. Request a new password reset e-mail.';
const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
const WRONG_OLD_PASSWORD = 'Your old password was entered incorrectly. Please enter it again.';

/** Reset requests per client address are counted over 15 minutes, mails per account over an hour. */
const RESET_ADDRESS_WINDOW_MS = 15 * 60_000;
const RESET_ACCOUNT_WINDOW_MS = 60 * 60_000;

const invalidLink = () => new AppError('BAD_REQUEST', INVALID_LINK, { token: INVALID_LINK });

async function refuseWeak(field: string, password: string, user: UserRow): Promise<void> {
  const problem = await passwordProblem(password, user);
  if (problem) throw new AppError('VALIDATION_ERROR', problem, { [field]: problem });
}

/**
 * Rate-limited per client address (PASSWORD_RESET_MAX_PER_ADDRESS requests per
 * 15 minutes, then 429) and per e-mail address (PASSWORD_RESET_MAX_PER_ACCOUNT
 * mails per hour; further requests are answered alike but mail nothing), so
 * the reply never tells whether an account exists.
 */
async function requestReset(
  app: FastifyInstance,
  db: Database,
  config: RuntimeConfig,
  email: string,
  ip: string,
): Promise<void> {
  const normalized = email.trim().toLowerCase();
  const now = new Date();
  const address: AttemptKey = { kind: 'reset-address', key: ip };
  const account: AttemptKey = { kind: 'reset-account', key: normalized };
  const decision = await db.transaction(
    async (tx): Promise<{ retryAfterMs: number } | { mail: boolean }> => {
      await lockAttemptKeys(tx, [account, address]);
      await forgetAttemptsBefore(tx, new Date(now.getTime() - FAILURE_MEMORY_MS));
      const byAddress = await failureStats(
        tx,
        address,
        new Date(now.getTime() - RESET_ADDRESS_WINDOW_MS),
      );
      if (byAddress.count >= config.passwordResetLimits.maxPerAddress) {
        const oldest = byAddress.oldest?.getTime() ?? now.getTime();
        return { retryAfterMs: oldest + RESET_ADDRESS_WINDOW_MS - now.getTime() };
      }
      const byAccount = await failureStats(
        tx,
        account,
        new Date(now.getTime() - RESET_ACCOUNT_WINDOW_MS),
      );
      const mail = byAccount.count < config.passwordResetLimits.maxPerAccount;
      await recordAttempts(tx, mail ? [account, address] : [address], now);
      return { mail };
    },
  );
  if ('retryAfterMs' in decision) {
    throw throttledError(
      Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
      'Too many password reset requests.',
    );
  }
  if (!decision.mail) return;
  // One pending request per address: repeated clicks do not queue a pile of e-mails.
  await publish(
    app.jobs,
    PASSWORD_RESET_JOB,
    { email: normalized },
    { singletonKey: `reset:${normalized}` },
  );
}

/** The `password.reset-request` job: a known, unlocked user gets a fresh link (earlier links die); anyone else nothing. */
async function sendResetMail(
  app: FastifyInstance,
  db: Database,
  config: RuntimeConfig,
  email: string,
  jobId: string,
): Promise<void> {
  const user = await repo.findUserByEmail(db, email);
  if (!user || user.isLocked) return;
  const dedupeKey = `password-reset:${jobId}`;
  await db.transaction(async (tx) => {
    if (await repo.outboxHasKey(tx, dedupeKey)) return;
    await revokeUserTokens(tx, user.id);
    const token = await issueToken(tx, user.id, 'reset', config.passwordResetTtlHours);
    const link = passwordLink(config, 'passwordreset', user.id, token);
    const hours = config.passwordResetTtlHours;
    await queueMail(app, tx, {
      to: [user.email],
      subject: 'Reset your Coldtrace password',
      dedupeKey,
      text: [
        `Hello ${user.firstName || user.username},`,
        '',
        'Someone asked to reset the password of your Coldtrace account. To choose a new password, open:',
        link,
        '',
        `The link works once and expires in ${hours} hours. If you did not ask for this, ignore this e-mail: your password stays as it is.`,
      ].join('\n'),
      html: htmlMail([
        `Hello ${escapeHtml(user.firstName || user.username)},`,
        'Someone asked to reset the password of your Coldtrace account.',
        `<a href="${escapeHtml(link)}">Choose a new password</a>`,
        `The link works once and expires in ${hours} hours. If you did not ask for this, ignore this e-mail: your password stays as it is.`,
      ]),
    });
  });
}

async function validateLink(db: Database, uuid: string, token: string): Promise<void> {
  if (!isUuid(uuid) || !(await tokenIsValid(db, uuid, token))) throw invalidLink();
}

/** Set the password from a reset or welcome link: the link dies, every session and token ends. */
async function confirmReset(
  db: Database,
  passwords: PasswordHasher,
  uuid: string,
  token: string,
  newPassword: string,
): Promise<void> {
  if (!isUuid(uuid)) throw invalidLink();
  const user = await repo.findUserById(db, uuid);
  if (!user || !(await tokenIsValid(db, uuid, token))) throw invalidLink();
  await refuseWeak('new_password', newPassword, user);
  const passwordHash = await passwords.hash(newPassword);
  await db.transaction(async (tx) => {
    // Consumed in the transaction: two concurrent uses, only one wins.
    if ((await consumeToken(tx, user.id, token)) === undefined) throw invalidLink();
    await repo.setPasswordHash(tx, user.id, passwordHash);
    await revokeUserTokens(tx, user.id);
    // Every session and user token dies with the old password.
    await revokeUserCredentials(tx, user.id);
    await clearAccountFailures(tx, `user:${user.id}`);
  });
}

/** Change Password dialog: the user's tokens and other sessions end, reset links die. */
async function changePassword(
  db: Database,
  passwords: PasswordHasher,
  guard: PasswordGuard,
  principal: Principal,
  input: { old_password: string; new_password: string; new_password_confirm: string },
  client: PasswordClient,
): Promise<UserRow> {
  if (input.new_password !== input.new_password_confirm) {
    throw new AppError('VALIDATION_ERROR', PASSWORDS_DO_NOT_MATCH, {
      new_password_confirm: PASSWORDS_DO_NOT_MATCH,
    });
  }
  const user = (await repo.findUserById(db, principal.user.id)) ?? principal.user;
  // Guessing the old password here costs as much as through the sign-in form.
  const checked = await guard.attempt(
    { user },
    client,
    () => passwords.verify(user.passwordHash, input.old_password),
    (seconds) =>
      throttledError(seconds, 'Too many wrong passwords.', {
        old_password: 'Too many wrong passwords',
      }),
  );
  if (!checked.ok) {
    throw new AppError('VALIDATION_ERROR', WRONG_OLD_PASSWORD, {
      old_password: WRONG_OLD_PASSWORD,
    });
  }
  await refuseWeak('new_password', input.new_password, user);
  const passwordHash = await passwords.hash(input.new_password);
  await db.transaction(async (tx) => {
    await repo.setPasswordHash(tx, user.id, passwordHash);
    await revokeUserTokens(tx, user.id);
    // Every user token and every other session dies with the old password.
    await revokeUserCredentials(tx, user.id, principal.sessionId);
  });
  return { ...user, passwordHash };
}

/**
 * Password flows (spec sections 2, 4, 5 and 7). A reset request only enqueues
 * a job, so the reply and its timing are the same whether the address is
 * known or not; the job finds the user and mails the link.
 */
export function createPasswordService(app: FastifyInstance) {
  const { db, config, passwords } = app;
  const guard = createPasswordGuard({ db, config });

  return {
    requestReset: (email: string, ip: string) => requestReset(app, db, config, email, ip),
    sendResetMail: (email: string, jobId: string) => sendResetMail(app, db, config, email, jobId),
    validateLink: (uuid: string, token: string) => validateLink(db, uuid, token),
    confirmReset: (uuid: string, token: string, newPassword: string) =>
      confirmReset(db, passwords, uuid, token, newPassword),
    changePassword: (
      principal: Principal,
      input: { old_password: string; new_password: string; new_password_confirm: string },
      client: PasswordClient,
    ) => changePassword(db, passwords, guard, principal, input, client),
  };
}
