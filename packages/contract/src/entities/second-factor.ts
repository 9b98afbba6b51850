import { z } from 'zod';

/**
 * A signer's second factor (issue 37 item 7; docs/decisions/second-factor.md):
 * a TOTP authenticator app (RFC 6238: 6 digits, 30 seconds, SHA-1) enrolled on
 * the user's own profile, and ten one-time recovery codes.
 */

/** How a signature's second factor was given; null on a signature given with the password alone. */
export const SECOND_FACTOR_KINDS = ['totp', 'recovery_code'] as const;
export const ZSecondFactorKind = z.enum(SECOND_FACTOR_KINDS);
export type TSecondFactorKind = z.infer<typeof ZSecondFactorKind>;

/** How the web app and the reports name it. */
export const SECOND_FACTOR_LABELS: Readonly<Record<TSecondFactorKind, string>> = {
  totp: 'authenticator code',
  recovery_code: 'recovery code',
};

/** What a signature line adds for its second factor: " · with authenticator code", or nothing. */
export function secondFactorSuffix(kind: TSecondFactorKind | null | undefined): string {
  return kind ? ` · with ${SECOND_FACTOR_LABELS[kind]}` : '';
}

/** How many recovery codes an enrolment (or a regeneration) gives. */
export const RECOVERY_CODE_COUNT = 10;

/** The answer when a signature (or an administrator's sign-in) needs a factor the user has not enrolled. */
export const SECOND_FACTOR_NOT_ENROLLED_MESSAGE =
  'Second factor required: enrol in your profile (Second Factor in the settings menu).';
/** The answer when the code is missing. */
export const SECOND_FACTOR_CODE_REQUIRED_MESSAGE =
  'Enter the 6-digit code from your authenticator app, or a recovery code';

/** A 6-digit authenticator code or a recovery code (spaces and dashes are ignored). */
export const ZSecondFactorCode = z
  .string()
  .trim()
  .min(1, SECOND_FACTOR_CODE_REQUIRED_MESSAGE)
  .max(64, 'must be at most 64 characters');

/** The optional second factor of a signature (and of an administrator's sign-in). */
export const secondFactorCodeShape = {
  second_factor_code: ZSecondFactorCode.optional().meta({
    description:
      "The current 6-digit code of the signer's authenticator app, or one of their recovery " +
      'codes: required when the organization requires a second factor for signers (400 ' +
      'SECOND_FACTOR_REQUIRED without it; 403 SECOND_FACTOR_NOT_ENROLLED when the signer has ' +
      'not enrolled); when sent otherwise it is checked and recorded too',
  }),
};

/** The signed-in user's second factor. */
export const ZSecondFactorStatus = z
  .object({
    enabled: z.boolean().describe('An authenticator is enrolled and confirmed'),
    pending: z.boolean().describe('An enrolment was started and awaits its first code'),
    enabled_at: z.string().nullable().describe('When it was confirmed (UTC)'),
    recovery_codes_left: z.number().int().describe('Unused recovery codes'),
    required_for_signing: z
      .boolean()
      .describe('The session organization requires it for every signature'),
    required_for_administrators: z
      .boolean()
      .describe("The session organization requires it at its administrators' sign-in"),
  })
  .meta({ id: 'SecondFactorStatus' });
export type TSecondFactorStatus = z.infer<typeof ZSecondFactorStatus>;

/** An enrolment started: the secret to add to the authenticator app, shown once. */
export const ZSecondFactorEnrolment = z
  .object({
    secret: z.string().describe('The TOTP secret (Base32), for typing into the app'),
    otpauth_uri: z.string().describe('The otpauth:// URI the QR code holds'),
    qr_code: z.string().describe('The QR code of otpauth_uri, a data: URL of an SVG image'),
  })
  .meta({ id: 'SecondFactorEnrolment' });
export type TSecondFactorEnrolment = z.infer<typeof ZSecondFactorEnrolment>;

/** Recovery codes, shown once (only their hashes are kept). */
export const ZRecoveryCodes = z
  .object({ recovery_codes: z.array(z.string()) })
  .meta({ id: 'RecoveryCodes' });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;

const password = z
  .string({ error: 'Enter your password' })
  .min(1, 'Enter your password')
  .max(1024, 'must be at most 1024 characters');

export const ZSecondFactorStart = z.object({ password }).meta({ id: 'SecondFactorStart' });
export const ZSecondFactorConfirm = z
  .object({ code: ZSecondFactorCode })
  .meta({ id: 'SecondFactorConfirm' });
/** Disabling, or new recovery codes: the password and a current code (or a recovery code). */
export const ZSecondFactorProof = z
  .object({ password, code: ZSecondFactorCode })
  .meta({ id: 'SecondFactorProof' });
export type TSecondFactorProof = z.infer<typeof ZSecondFactorProof>;

/** A server administrator removes another person's factor: whose, why, and their own password. */
export const ZSecondFactorReset = z
  .object({
    user_id: z.string({ error: 'Choose the user' }).min(1, 'Choose the user'),
    reason: z
      .string({ error: 'Give the reason' })
      .trim()
      .min(1, 'Give the reason')
      .max(500, 'must be at most 500 characters'),
    password,
  })
  .meta({ id: 'SecondFactorReset' });
export type TSecondFactorReset = z.infer<typeof ZSecondFactorReset>;

export const ZSecondFactorResetDone = z
  .object({ user_id: z.string(), username: z.string(), second_factor_removed: z.literal(true) })
  .meta({ id: 'SecondFactorResetDone' });
export type TSecondFactorResetDone = z.infer<typeof ZSecondFactorResetDone>;
