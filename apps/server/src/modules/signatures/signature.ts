import {
  SECOND_FACTOR_LABELS,
  type TSecondFactorKind,
  type TSignatureMeaning,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../kernel/errors';
import { actorOf, printedName, recordAudit } from '../../kernel/audit';
import { DEVICE_COOKIE } from '../../kernel/context';
import type { Principal } from '../../kernel/principal';
import { createPasswordGuard, createSecondFactorService, throttledError } from '../identity';

/**
 * Verifying the password an electronic signature re-enters (21 CFR Part 11
 * §11.200: both components at the first signing of a session... we ask at
 * every signing). Throttled by the sign-in mechanism (`auth/throttle.ts`:
 * the same device cookie, account and client address counters): guessing a
 * password through signatures costs as much as through the sign-in form, and
 * counts against it.
 *
 * With the second factor (issue 37 item 7; docs/decisions/second-factor.md):
 * where the organization requires it, a signer without one is refused (403)
 * and one who sends no code too (400), before the password is checked; the code
 * is checked after it (throttled, once only). Answers the factor given, which
 * the signature records (null: the password alone).
 *
 * A wrong password, and a refusal after too many, is a `signature.failure`
 * entry in the signing organization's trail (the audit-trail review ranks it
 * high). It is written on its own, outside the signing transaction, because the
 * request then fails and that transaction never commits.
 */

export const WRONG_SIGNATURE_PASSWORD = 'The password is not correct.';
export const API_KEY_CANNOT_SIGN =
  'An API key cannot sign: a person signs in Coldtrace with their own password.';

export async function verifySignaturePassword(
  app: FastifyInstance,
  principal: Principal,
  password: string,
  clientIp: string,
  deviceCookie?: string,
  secondFactor: { code?: string | undefined; requestId?: string } = {},
): Promise<TSecondFactorKind | null> {
  // A signature is a person's: an API key (an integration) never signs, whoever created it.
  if (principal.kind === 'api-key') {
    throw new AppError('FORBIDDEN', API_KEY_CANNOT_SIGN, { password: API_KEY_CANNOT_SIGN });
  }
  const factors = createSecondFactorService(app);
  const withCode = await factors.precheckSignature(principal, secondFactor.code);
  const guard = createPasswordGuard({ db: app.db, config: app.config });
  const failure = (reason: string) =>
    principal.organizationId === null
      ? Promise.resolve()
      : recordAudit(
          app.db,
          {
            organizationId: principal.organizationId,
            actor: actorOf(principal),
            requestId: secondFactor.requestId ?? null,
          },
          [
            {
              action: 'signature.failure',
              entityType: 'user',
              entityId: principal.user.id,
              reason,
            },
          ],
        );
  let refused: AppError | undefined;
  const result = await guard
    .attempt(
      { user: principal.user },
      { ip: clientIp, deviceCookie },
      () => app.passwords.verify(principal.user.passwordHash, password),
      (seconds) =>
        (refused = throttledError(seconds, 'Too many wrong passwords.', {
          password: 'Too many wrong passwords',
        })),
    )
    .catch(async (error: unknown) => {
      if (error === refused) await failure('Signature refused: too many wrong passwords');
      throw error;
    });
  // A wrong password: the reserved attempt stays as the failure.
  if (!result.ok) {
    await failure('Signature refused: the password was not correct');
    throw new AppError('INVALID_CREDENTIALS', WRONG_SIGNATURE_PASSWORD, {
      password: WRONG_SIGNATURE_PASSWORD,
    });
  }
  if (!withCode || secondFactor.code === undefined) return null;
  return factors.checkSignatureCode(principal, secondFactor.code, secondFactor.requestId);
}

/** What an audit entry's reason adds for a signature given with a second factor. */
export const secondFactorNote = (kind: TSecondFactorKind | null): string =>
  kind === null ? '' : ` (second factor: ${SECOND_FACTOR_LABELS[kind]})`;

/** A change's signature, verified: who signs and what it means. */
export interface ChangeSignature {
  printedName: string;
  meaning: TSignatureMeaning;
  clientType: string;
  /** The second factor given with the password (null: none). */
  secondFactor: TSecondFactorKind | null;
}

/**
 * The signature sent with a change (reason for change, password, meaning;
 * contract `changeReasonShape`), verified like an acknowledgement's: null when
 * no password was sent; password and meaning go together (400 naming the one
 * missing); a wrong password answers 400 naming `password`.
 */
export async function verifyChangeSignature(
  app: FastifyInstance,
  request: { ip: string; id?: string; cookies: Record<string, string | undefined> },
  principal: Principal,
  body: {
    password?: string | undefined;
    meaning?: TSignatureMeaning | undefined;
    second_factor_code?: string | undefined;
  },
  clientType: string,
): Promise<ChangeSignature | null> {
  if (body.password === undefined && body.meaning === undefined) return null;
  if (body.meaning === undefined) {
    const reason = 'Choose what your signature means';
    throw new AppError('VALIDATION_ERROR', reason, { meaning: reason });
  }
  if (body.password === undefined) {
    const reason = 'Enter your password to sign';
    throw new AppError('VALIDATION_ERROR', reason, { password: reason });
  }
  const secondFactor = await verifySignaturePassword(
    app,
    principal,
    body.password,
    request.ip,
    request.cookies[DEVICE_COOKIE],
    { code: body.second_factor_code, ...(request.id ? { requestId: request.id } : {}) },
  );
  return {
    printedName: printedName(principal.user),
    meaning: body.meaning,
    clientType,
    secondFactor,
  };
}
