import {
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_NOT_ENROLLED_MESSAGE,
  ZExcursionAlarm,
  ZRecordDisposition,
  ZRecoveryCodes,
  ZSecondFactorEnrolment,
  ZSecondFactorStatus,
} from '@coldtrace/contract';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { alarmSignatures } from '../../../db/schema-notifications';
import { recordDispositions } from '../../../db/schema-review';
import { auditEvents } from '../../../db/schema-audit';
import { userSecondFactors } from '../../../db/schema-second-factor';
import { sealSecret } from '../../../kernel/secret-box';
import {
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
  type TestClient,
  type TestOrg,
} from '../../../../test/helpers';
import { scannedShipment, stoppedShipment } from '../../../../test/shipment-factories';

const SF = '/api/auth/second-factor/';
const XT1 = '/api/devices/xt1';
const ACK = `${XT1}/alarm-acknowledge/`;
const DECIDE = `${XT1}/records/disposition/`;
const SETTINGS = '/api/auth/org-settings/';
/** 9 points, high 8 and low 2: two excursion alarms. */
const TEMPS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];

/** The authenticator app: the code of `secret` now, or `steps` periods later (accepted: one step of drift). */
const codeOf = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

describe('second factor for signers [FEAT-SECOND-FACTOR, FEAT-E-SIGNATURE, RULE-AUDIT-1]', () => {
  let t: TestApp;
  let org: TestOrg;
  let admin: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Administrator' });
    org = signedIn.orgs[0]!;
    admin = signedIn.client;
  });
  afterAll(() => t.close());

  const status = async (client: TestClient) => {
    const res = await client.get(SF);
    expect(res.statusCode, res.body).toBe(200);
    return ZSecondFactorStatus.parse(res.json());
  };

  /** Enrols the client's user: answers the secret and the recovery codes. */
  async function enrol(client: TestClient) {
    const started = await client.post(`${SF}enrol/`, { password: TEST_PASSWORD });
    expect(started.statusCode, started.body).toBe(200);
    const { secret } = ZSecondFactorEnrolment.parse(started.json());
    const confirmed = await client.post(`${SF}confirm/`, { code: await codeOf(secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { secret, codes: ZRecoveryCodes.parse(confirmed.json()).recovery_codes };
  }

  const requireFor = async (client: TestClient, settings: Record<string, boolean>) => {
    const res = await client.patch(SETTINGS, settings);
    expect(res.statusCode, res.body).toBe(200);
  };

  /** The unacknowledged alarms of a new shipment of the client's organization. */
  async function alarms(client: TestClient) {
    const { recordId } = await scannedShipment(client, TEMPS, 'TFA');
    const res = await client.get(`${XT1}/alarms/?record_id=${recordId}`);
    return { recordId, alarms: z.array(ZExcursionAlarm).parse(res.json()) };
  }

  const acknowledge = (client: TestClient, alarmId: string, code?: string) =>
    client.post(ACK, {
      alarm_ids: [alarmId],
      comment: 'Checked',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
      ...(code === undefined ? {} : { second_factor_code: code }),
    });

  const audit = (userId: string, action: string) =>
    t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, userId), eq(auditEvents.action, action)));

  it('enrols: a secret with its otpauth URI and QR code, active only once a first code confirms it', async () => {
    const { client, user } = await t.signIn({ role: 'Operator', orgs: [org] });
    expect(await status(client)).toMatchObject({ enabled: false, pending: false });

    const wrongPassword = await client.post(`${SF}enrol/`, { password: 'not-it' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(Object.keys(wrongPassword.json().fields)).toEqual(['password']);

    const started = await client.post(`${SF}enrol/`, { password: TEST_PASSWORD });
    expect(started.statusCode, started.body).toBe(200);
    const enrolment = ZSecondFactorEnrolment.parse(started.json());
    expect(enrolment.otpauth_uri).toMatch(
      new RegExp(`^otpauth://totp/Coldtrace:.+\\?secret=${enrolment.secret}&issuer=Coldtrace$`),
    );
    expect(enrolment.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(enrolment.qr_code.split(',')[1]!, 'base64').toString();
    expect(svg).toContain('<svg');
    // Stored encrypted: the secret is not in the row.
    const [row] = await t.db
      .select()
      .from(userSecondFactors)
      .where(eq(userSecondFactors.userId, user.row.id));
    expect(row!.secretEncrypted).not.toContain(enrolment.secret);
    expect(row!.enabledAt).toBeNull();
    expect(await status(client)).toMatchObject({ enabled: false, pending: true });

    const wrong = await client.post(`${SF}confirm/`, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json().fields)).toEqual(['second_factor_code']);
    const confirmed = await client.post(`${SF}confirm/`, {
      code: await codeOf(enrolment.secret),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recovery_codes } = ZRecoveryCodes.parse(confirmed.json());
    expect(recovery_codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recovery_codes).size).toBe(RECOVERY_CODE_COUNT);
    expect(await status(client)).toMatchObject({
      enabled: true,
      pending: false,
      recovery_codes_left: RECOVERY_CODE_COUNT,
    });
    // A second enrolment over an active one is refused.
    expect((await client.post(`${SF}enrol/`, { password: TEST_PASSWORD })).statusCode).toBe(409);

    expect(await audit(user.row.id, 'second_factor.enrol.start')).toHaveLength(1);
    expect(await audit(user.row.id, 'second_factor.enable')).toHaveLength(1);
    const failures = await audit(user.row.id, 'second_factor.failure');
    expect(failures.map((f) => f.organizationId)).toEqual([org.id]);
  });

  it('when the organization requires it: a signature needs the code, records it, and refuses a replay', async () => {
    const { client, user } = await t.signIn({ role: 'Operator', orgs: [org] });
    const { secret, codes } = await enrol(client);
    await requireFor(admin, { second_factor_for_signers: true });
    expect((await status(client)).required_for_signing).toBe(true);
    const [setting] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, org.id),
          eq(auditEvents.action, 'second_factor_for_signers.update'),
        ),
      );
    expect(setting).toMatchObject({ oldValue: false, newValue: true });
    const {
      alarms: [first, second],
    } = await alarms(client);

    const without = await acknowledge(client, first!.id!);
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED' });
    expect(Object.keys(without.json().fields)).toEqual(['second_factor_code']);

    // The code of the next step (one step of drift is accepted): the confirming code's step is spent.
    const code = await codeOf(secret, 1);
    const signed = await acknowledge(client, first!.id!, code);
    expect(signed.statusCode, signed.body).toBe(200);
    const answered = z.array(ZExcursionAlarm).parse(signed.json());
    expect(answered[0]!.signature).toMatchObject({ second_factor: 'totp' });
    const [stored] = await t.db
      .select()
      .from(alarmSignatures)
      .where(eq(alarmSignatures.alarmId, Number(first!.id)));
    expect(stored!.secondFactor).toBe('totp');
    const [entry] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'alarm.acknowledge'), eq(auditEvents.entityId, first!.id!)),
      );
    expect(entry!.reason).toContain('(second factor: authenticator code)');

    // The same code again: refused, audited, nothing signed.
    const replay = await acknowledge(client, second!.id!, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().fields.second_factor_code).toMatch(/already used/);
    expect((await audit(user.row.id, 'second_factor.failure')).at(-1)!.reason).toMatch(
      /already used.*\(signature\)/,
    );

    // A recovery code works once (typed in capitals with spaces: normalized).
    const typed = ` ${codes[0]!.toUpperCase()} `;
    const recovered = await acknowledge(client, second!.id!, typed);
    expect(recovered.statusCode, recovered.body).toBe(200);
    expect(z.array(ZExcursionAlarm).parse(recovered.json())[0]!.signature).toMatchObject({
      second_factor: 'recovery_code',
    });
    // Used: refused (the code is checked before anything is signed).
    expect((await acknowledge(client, first!.id!, codes[0])).statusCode).toBe(400);
    expect(await audit(user.row.id, 'second_factor.recovery_code.use')).toHaveLength(1);
    expect((await status(client)).recovery_codes_left).toBe(RECOVERY_CODE_COUNT - 1);
    await requireFor(admin, { second_factor_for_signers: false });
  });

  it('a secret sealed under another SECRET_KEY answers 409 naming the code, not 500', async () => {
    const { client, user } = await t.signIn({ role: 'Operator', orgs: [org] });
    const { secret } = await enrol(client);
    // As if SECRET_KEY had changed since the enrolment: the stored secret no longer opens.
    await t.ownerDb
      .update(userSecondFactors)
      .set({ secretEncrypted: sealSecret('another-secret-key-'.repeat(3), 'x', secret) })
      .where(eq(userSecondFactors.userId, user.row.id));
    const {
      alarms: [first],
    } = await alarms(client);
    const res = await acknowledge(client, first!.id!, await codeOf(secret, 1));
    expect(res.statusCode, res.body).toBe(409);
    expect(Object.keys(res.json().fields)).toEqual(['second_factor_code']);
    expect(res.json().message).toMatch(/can no longer be read/);
  });

  it("a server administrator removes a lost factor with a reason and their password; audited in the person's organizations", async () => {
    const { client, user } = await t.signIn({ role: 'Operator', orgs: [org] });
    await enrol(client);
    const { client: serverAdmin, user: adminUser } = await t.signIn({
      role: 'Administrator',
      serverAdmin: true,
    });
    const reset = (who: TestClient, body: Record<string, unknown>) => who.post(`${SF}reset/`, body);
    const body = { user_id: user.row.id, reason: 'Phone and codes lost (ticket 42)' };

    // Only a server administrator; an organization's administrator gets 403.
    expect((await reset(admin, { ...body, password: TEST_PASSWORD })).statusCode).toBe(403);
    const wrong = await reset(serverAdmin, { ...body, password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json().fields)).toEqual(['password']);
    const noReason = await reset(serverAdmin, { ...body, reason: ' ', password: TEST_PASSWORD });
    expect(noReason.statusCode).toBe(400);
    expect(Object.keys(noReason.json().fields)).toEqual(['reason']);
    const nobody = await reset(serverAdmin, {
      ...body,
      user_id: '00000000-0000-4000-8000-000000000000',
      password: TEST_PASSWORD,
    });
    expect(nobody.statusCode).toBe(404);
    // Not an id at all, or with a NUL byte: 404 or 400 naming the field, never a 500.
    const malformed = await reset(serverAdmin, {
      ...body,
      user_id: 'abc',
      password: TEST_PASSWORD,
    });
    expect(malformed.statusCode).toBe(404);
    expect(Object.keys(malformed.json().fields)).toEqual(['user_id']);
    const nul = await reset(serverAdmin, { ...body, reason: 'a\u0000b', password: TEST_PASSWORD });
    expect(nul.statusCode).toBe(400);
    expect((await status(client)).enabled).toBe(true);

    const done = await reset(serverAdmin, { ...body, password: TEST_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({
      user_id: user.row.id,
      username: user.row.username,
      second_factor_removed: true,
    });
    expect((await status(client)).enabled).toBe(false);
    const [entry] = await audit(user.row.id, 'second_factor.reset');
    expect(entry).toMatchObject({
      organizationId: org.id,
      actorUserId: adminUser.row.id,
      reason: `Second factor removed by a server administrator: ${body.reason}`,
    });
    // Nothing left to remove: 409 naming the user.
    const again = await reset(serverAdmin, { ...body, password: TEST_PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(Object.keys(again.json().fields)).toEqual(['user_id']);
    // They enrol again.
    await enrol(client);
  });

  it('a signer who has not enrolled is told to enrol (403), before the password is checked', async () => {
    const { client } = await t.signIn({ role: 'Operator', orgs: [org] });
    await requireFor(admin, { second_factor_for_signers: true });
    const { alarms: list } = await alarms(client);
    const res = await acknowledge(client, list[0]!.id!);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'SECOND_FACTOR_NOT_ENROLLED',
      message: SECOND_FACTOR_NOT_ENROLLED_MESSAGE,
    });
    await requireFor(admin, { second_factor_for_signers: false });
  });

  it("another organization's setting does not apply; a code sent anyway is checked and recorded", async () => {
    const strict = await t.createOrg('Strict');
    const { client: strictAdmin } = await t.signIn({ role: 'Administrator', orgs: [strict] });
    await requireFor(strictAdmin, { second_factor_for_signers: true });
    // A member of both; the session works in the lenient one (org).
    const { client, user } = await t.signIn({ role: 'Manager', orgs: [org, strict] });
    const switched = await client.patch('/api/auth/session/', { id: org.id });
    expect(switched.statusCode, switched.body).toBe(200);
    const { secret, codes } = await enrol(client);
    const { alarms: list } = await alarms(client);
    const plain = await acknowledge(client, list[0]!.id!);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(z.array(ZExcursionAlarm).parse(plain.json())[0]!.signature!.second_factor).toBeNull();
    const used = await codeOf(secret, 1);
    const withCode = await acknowledge(client, list[1]!.id!, used);
    expect(withCode.statusCode, withCode.body).toBe(200);
    expect(z.array(ZExcursionAlarm).parse(withCode.json())[0]!.signature!.second_factor).toBe(
      'totp',
    );

    // In the strict organization the same user needs it for a release decision.
    await client.patch('/api/auth/session/', { id: strict.id });
    const { recordId } = await stoppedShipment(client, [5, 5, 5, 5], 'TFA');
    const decide = (code?: string) =>
      client.post(DECIDE, {
        record_id: recordId,
        decision: 'RELEASED',
        comment: 'In range',
        password: TEST_PASSWORD,
        ...(code === undefined ? {} : { second_factor_code: code }),
      });
    expect((await decide()).statusCode).toBe(400);
    // The code used above is spent, in every organization: a replay.
    expect((await decide(used)).statusCode).toBe(400);
    const accepted = await decide(codes[0]);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const [decision] = await t.db
      .select()
      .from(recordDispositions)
      .where(eq(recordDispositions.recordId, Number(recordId)));
    expect(decision!.secondFactor).toBe('recovery_code');
    const history = await client.get(`${XT1}/records/dispositions/?record_id=${recordId}`);
    expect(z.array(ZRecordDisposition).parse(history.json())[0]!.second_factor).toBe(
      'recovery_code',
    );
    // Audited where it was used: the strict organization.
    const uses = await audit(user.row.id, 'second_factor.recovery_code.use');
    expect(uses.map((u) => u.organizationId)).toEqual([strict.id]);
  });

  it('locks code attempts after repeated wrong codes, each failure audited', async () => {
    const { client, user } = await t.signIn({ role: 'Operator', orgs: [org] });
    const { secret } = await enrol(client);
    const proof = (code: string) =>
      client.post(`${SF}recovery-codes/`, { password: TEST_PASSWORD, code });
    for (let i = 0; i < t.config.loginThrottle.maxPerAccount; i++) {
      expect((await proof('123456')).statusCode).toBe(400);
    }
    const locked = await proof(await codeOf(secret, 1));
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect(Object.keys(locked.json().fields)).toEqual(['second_factor_code']);
    expect(await audit(user.row.id, 'second_factor.failure')).toHaveLength(
      t.config.loginThrottle.maxPerAccount,
    );
    expect(await audit(user.row.id, 'second_factor.locked')).toHaveLength(1);
  });

  it('new recovery codes replace the old ones; disabling needs the password and a code', async () => {
    const { client, user } = await t.signIn({ role: 'Operator', orgs: [org] });
    const { secret, codes } = await enrol(client);
    const renewed = await client.post(`${SF}recovery-codes/`, {
      password: TEST_PASSWORD,
      code: await codeOf(secret, 1),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = ZRecoveryCodes.parse(renewed.json()).recovery_codes;
    const disableWith = (password: string, code: string) =>
      client.post(`${SF}disable/`, { password, code });
    // An old recovery code is no longer one; a wrong password is refused before any code.
    expect((await disableWith(TEST_PASSWORD, codes[1]!)).statusCode).toBe(400);
    const wrongPassword = await disableWith('not-it', fresh[0]!);
    expect(Object.keys(wrongPassword.json().fields)).toEqual(['password']);
    const disabled = await disableWith(TEST_PASSWORD, fresh[0]!);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(ZSecondFactorStatus.parse(disabled.json())).toMatchObject({
      enabled: false,
      recovery_codes_left: 0,
    });
    expect(await audit(user.row.id, 'second_factor.recovery_codes.regenerate')).toHaveLength(1);
    expect(await audit(user.row.id, 'second_factor.disable')).toHaveLength(1);
    expect(await audit(user.row.id, 'second_factor.recovery_code.use')).toHaveLength(1);
  });

  it('an enrolled administrator gives a code at sign-in where the organization requires it', async () => {
    const { client, user } = await t.signIn({ role: 'Administrator', orgs: [org] });
    const { secret } = await enrol(client);
    await requireFor(admin, { second_factor_for_administrators: true });
    const fresh = t.client();
    const without = await fresh.login(user.username, user.password);
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED' });
    expect(fresh.sessionToken).toBeUndefined();
    const withCode = await fresh.post('/api/auth/login/', {
      email_or_username: user.username,
      password: user.password,
      second_factor_code: await codeOf(secret, 1),
    });
    expect(withCode.statusCode, withCode.body).toBe(200);
    // An operator of the same organization signs in with the password alone.
    const { client: operator } = await t.signIn({ role: 'Operator', orgs: [org] });
    expect((await operator.get(SF)).statusCode).toBe(200);
    await requireFor(admin, { second_factor_for_administrators: false });
  });

  it("a signature's second factor is in its evidence digest: changing it is detected", async () => {
    const before = await admin.get('/api/audit/verify/');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({ verified: true, first_break: null });
    // As the owner, past the append-only trigger: a password-only signature claims a factor.
    const [row] = await t.db
      .select()
      .from(alarmSignatures)
      .where(
        and(eq(alarmSignatures.organizationId, org.id), isNotNull(alarmSignatures.secondFactor)),
      );
    await t.ownerDb.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE alarm_signatures DISABLE TRIGGER USER`);
      await tx.execute(sql`UPDATE alarm_signatures SET second_factor = NULL WHERE id = ${row!.id}`);
      await tx.execute(sql`ALTER TABLE alarm_signatures ENABLE TRIGGER USER`);
    });
    const after = await admin.get('/api/audit/verify/');
    expect(after.json().verified).toBe(false);
    expect(after.json().first_break).toMatchObject({ source: 'alarm_signatures' });
  });
});
