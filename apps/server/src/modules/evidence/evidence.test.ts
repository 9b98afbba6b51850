import type { TEvidenceVerification } from '@coldtrace/contract';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { alarmSignatures } from '../../db/schema-notifications';
import { recordAudit } from '../../kernel/audit';
import { anchorOrganization } from './anchors';
import { signatureValid, signingKeyFrom, signText } from './signing-key';
import { verifyEvidence } from './verify';

/**
 * The evidence chain (issue 37 item 1): the database stamps the trail, every
 * evidence row is chained, and tampering, even as the database owner with the
 * triggers switched off, is named by the verification.
 */

describe('the evidence chain [FEAT-EVIDENCE-CHAIN, RULE-AUDIT-3, RULE-AUDIT-2]', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** An organization with a record, its series, an alarm, a signature, a decision and trail entries. */
  async function evidenceOf(org?: TestOrg) {
    const o = org ?? (await t.createOrg());
    const f = recordFactories(t.db);
    const tag = await f.tag(o);
    const record = await f.record(o, tag, { highThreshold: 8, lowThreshold: 2 });
    await f.series(record, 0, [4, 5, 9, 10, 5]);
    await f.series(record, 1500, [6, 7]);
    // Chunks 2..11 too: a chain longer than 9 entries (numbers compare as numbers).
    for (let chunk = 2; chunk < 12; chunk += 1) await f.series(record, chunk * 1024, [5]);
    const alarm = await f.alarm(record);
    await t.db.insert(alarmSignatures).values({
      organizationId: o.id,
      alarmId: alarm.id,
      recordId: record.id,
      userId: '00000000-0000-4000-8000-000000000001',
      printedName: 'Ada Quality',
      signedAt: new Date(),
      meaning: 'REVIEWED',
      comment: 'seen',
      clientType: 'WEB',
    });
    await f.decision(record, { decision: 'RELEASED' });
    const actor = { userId: null, name: 'Ada Quality', clientType: 'WEB' };
    await recordAudit(t.db, { organizationId: o.id, actor }, [
      { action: 'product.update', entityType: 'product', entityId: 7, field: 'high', newValue: 8 },
      {
        action: 'alarm.acknowledge',
        entityType: 'alarm',
        entityId: alarm.id,
        recordId: record.id,
        reason: 'seen',
      },
    ]);
    const audit = await t.ownerDb.execute<{ id: string }>(
      sql`SELECT id::text FROM audit_events WHERE organization_id = ${o.id} AND record_id IS NULL`,
    );
    return { org: o, record, alarm, auditId: audit.rows[0]!.id };
  }

  const key = () => signingKeyFrom(t.config.secretKey);
  const verify = (orgId: string) => verifyEvidence(t.db, orgId, { trustedKeys: [key().publicKey] });

  /** As the database owner, with the tables' own triggers off: what a person with the owner's password could do. */
  async function asOwnerUntracked(tables: string[], statements: SQL | SQL[]) {
    await t.ownerDb.transaction(async (tx) => {
      for (const table of tables) {
        await tx.execute(sql`ALTER TABLE ${sql.identifier(table)} DISABLE TRIGGER USER`);
      }
      for (const statement of [statements].flat()) await tx.execute(statement);
      for (const table of tables) {
        await tx.execute(sql`ALTER TABLE ${sql.identifier(table)} ENABLE TRIGGER USER`);
      }
    });
  }

  const kinds = (v: TEvidenceVerification) => v.problems.map((p) => [p.kind, p.source, p.row_key]);

  it('an untouched organization verifies, through the API, for administrators only', async () => {
    const admin = await t.signIn({ role: 'Administrator' });
    await evidenceOf(admin.orgs[0]);
    const res = await admin.client.get('/api/audit/verify/');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<TEvidenceVerification>();
    expect(body).toMatchObject({ verified: true, first_break: null, problems: [] });
    // The organization's chain and the record's: 1 record, 12 chunks, 1 alarm, 1 signature,
    // 1 decision and 2 trail entries, and the record chain's opening in the organization's.
    expect(body.chains).toBe(2);
    expect(body.rows).toBe(18);
    expect(body.entries).toBe(19);

    const viewer = await t.signIn({ role: 'Manager', orgs: admin.orgs });
    expect((await viewer.client.get('/api/audit/verify/')).statusCode).toBe(403);
  });

  it('the database, not the caller, says when and who', async () => {
    const { org } = await evidenceOf();
    // No actor named by the server: refused, whatever the row says.
    const refused = await t.db
      .execute(
        sql`INSERT INTO audit_events (organization_id, occurred_at, actor_name, action, entity_type, entity_id)
            VALUES (${org.id}, '2020-01-01T00:00:00Z', 'Forger', 'record.delete', 'record', '1')`,
      )
      .then(
        () => null,
        (err: { cause?: { message?: string } }) => err.cause?.message ?? String(err),
      );
    expect(refused).toMatch(/no actor/);
    // Named: the database's time and the named actor, not the values inserted; and it is chained.
    await t.db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT set_config('coldtrace.actor', '{"userId":null,"name":"System"}', true)`,
      );
      await tx.execute(
        sql`INSERT INTO audit_events (organization_id, occurred_at, actor_name, action, entity_type, entity_id)
            VALUES (${org.id}, '2020-01-01T00:00:00Z', 'Forger', 'record.delete', 'record', '1')`,
      );
    });
    const { rows } = await t.db.execute<{ actor_name: string; recent: boolean }>(
      sql`SELECT actor_name, occurred_at > now() - interval '1 minute' AS recent
            FROM audit_events WHERE organization_id = ${org.id} AND action = 'record.delete'`,
    );
    expect(rows).toEqual([{ actor_name: 'System', recent: true }]);
    expect((await verify(org.id)).verified).toBe(true);
  });

  it('keeps every alarm version; the application can change an alarm only with a trace', async () => {
    const { org, alarm } = await evidenceOf();
    await t.db.execute(sql`UPDATE alarms SET dismissed = true WHERE id = ${alarm.id}`);
    await t.db.execute(sql`UPDATE alarms SET dismissed = false WHERE id = ${alarm.id}`);
    const versions = await t.db.execute<{ op: string; dismissed: boolean }>(
      sql`SELECT op, (content ->> 'dismissed')::boolean AS dismissed FROM evidence_chain
           WHERE source = 'alarms' AND row_key = ${String(alarm.id)} ORDER BY seq`,
    );
    expect(versions.rows).toEqual([
      { op: 'I', dismissed: false },
      { op: 'U', dismissed: true },
      { op: 'U', dismissed: false },
    ]);
    const deleted = await t.db.execute(sql`DELETE FROM alarms WHERE id = ${alarm.id}`).then(
      () => 'deleted',
      () => 'refused',
    );
    expect(deleted).toBe('refused');
    expect((await verify(org.id)).verified).toBe(true);
  });

  it.each([
    {
      what: 'an audit entry edited',
      tables: ['audit_events'],
      tamper: (e: Evidence) =>
        sql`UPDATE audit_events SET reason = 'edited' WHERE id = ${e.auditId}`,
      expected: (e: Evidence) => ['row_edited', 'audit_events', e.auditId],
    },
    {
      what: 'an audit entry deleted',
      tables: ['audit_events'],
      tamper: (e: Evidence) => sql`DELETE FROM audit_events WHERE id = ${e.auditId}`,
      expected: (e: Evidence) => ['row_removed', 'audit_events', e.auditId],
    },
    {
      what: 'an audit entry truncated and re-inserted with an earlier time',
      tables: ['audit_events'],
      tamper: (e: Evidence) => [
        sql`CREATE TEMP TABLE kept ON COMMIT DROP AS SELECT * FROM audit_events`,
        sql`TRUNCATE audit_events`,
        sql`INSERT INTO audit_events SELECT * FROM kept`,
        sql`UPDATE audit_events SET occurred_at = '2020-01-01T00:00:00Z' WHERE id = ${e.auditId}`,
      ],
      expected: (e: Evidence) => ['row_edited', 'audit_events', e.auditId],
    },
    {
      what: 'an acknowledged alarm dismissed',
      tables: ['alarms'],
      tamper: (e: Evidence) => sql`UPDATE alarms SET dismissed = true WHERE id = ${e.alarm.id}`,
      expected: (e: Evidence) => ['row_edited', 'alarms', String(e.alarm.id)],
    },
    {
      what: 'an alarm deleted',
      tables: ['alarms', 'alarm_signatures'],
      tamper: (e: Evidence) => [
        sql`DELETE FROM alarm_signatures WHERE alarm_id = ${e.alarm.id}`,
        sql`DELETE FROM alarms WHERE id = ${e.alarm.id}`,
      ],
      expected: (e: Evidence) => ['row_removed', 'alarms', String(e.alarm.id)],
    },
    {
      what: 'a series chunk deleted',
      tables: ['record_series_chunks'],
      tamper: (e: Evidence) =>
        sql`DELETE FROM record_series_chunks WHERE record_id = ${e.record.id} AND chunk_no = 1`,
      expected: (e: Evidence) => ['row_removed', 'record_series_chunks', `${e.record.id}/1`],
    },
    {
      what: "a record's highest temperature set to 99",
      tables: ['records'],
      tamper: (e: Evidence) =>
        sql`UPDATE records SET highest_recorded_temperature = 99 WHERE id = ${e.record.id}`,
      expected: (e: Evidence) => ['row_edited', 'records', String(e.record.id)],
    },
    {
      what: 'a chain entry edited to match an edited row',
      tables: ['records', 'evidence_chain'],
      tamper: (e: Evidence) => [
        sql`UPDATE records SET highest_recorded_temperature = 99 WHERE id = ${e.record.id}`,
        sql`UPDATE evidence_chain c
           SET digest = evidence_digest(evidence_content(r))
          FROM records r
         WHERE r.id = ${e.record.id} AND c.source = 'records' AND c.row_key = r.id::text`,
      ],
      expected: (e: Evidence) => ['entry_edited', 'records', String(e.record.id)],
    },
    {
      what: 'a chain entry deleted',
      tables: ['evidence_chain'],
      tamper: (e: Evidence) =>
        sql`DELETE FROM evidence_chain WHERE chain = ${`record:${e.record.id}`} AND seq = 2`,
      expected: () => ['entry_missing', expect.any(String), expect.any(String)],
    },
    {
      what: 'two chain entries reordered',
      tables: ['evidence_chain'],
      tamper: (e: Evidence) =>
        [
          [2, -2],
          [3, 2],
          [-2, 3],
        ].map(
          ([from, to]) =>
            sql`UPDATE evidence_chain SET seq = ${to}
                 WHERE chain = ${`record:${e.record.id}`} AND seq = ${from}`,
        ),
      expected: () => ['entry_edited', expect.any(String), expect.any(String)],
    },
    {
      what: 'a kept alarm version edited',
      tables: ['evidence_chain'],
      tamper: (e: Evidence) => sql`
        UPDATE evidence_chain SET content = jsonb_set(content, '{dismissed}', 'true')
         WHERE source = 'alarms' AND row_key = ${String(e.alarm.id)}`,
      expected: (e: Evidence) => ['version_content_edited', 'alarms', String(e.alarm.id)],
    },
    {
      what: "a record's whole chain deleted",
      tables: ['evidence_chain'],
      tamper: (e: Evidence) =>
        sql`DELETE FROM evidence_chain WHERE chain = ${`record:${e.record.id}`}`,
      expected: () => ['entry_missing', null, null],
    },
  ])('names the break when, as the owner, $what', async ({ tables, tamper, expected }) => {
    const e = await evidenceOf();
    expect((await verify(e.org.id)).verified).toBe(true);
    await asOwnerUntracked(tables, tamper(e));
    const result = await verify(e.org.id);
    expect(result.verified).toBe(false);
    expect(kinds(result)).toContainEqual(expected(e));
    expect(result.first_break).toEqual(result.problems[0]);
  });

  it('anchors sign what grew, link to the one before, and publish their key', async () => {
    const e = await evidenceOf();
    const first = await anchorOrganization(t.db, e.org.id, key());
    expect(first?.heads.map(([chain]) => chain).sort()).toEqual(
      [`org:${e.org.id}`, `record:${e.record.id}`].sort(),
    );
    // Nothing grew: no second anchor.
    expect(await anchorOrganization(t.db, e.org.id, key())).toBeNull();
    await t.db.execute(sql`UPDATE alarms SET acknowledged = true WHERE id = ${e.alarm.id}`);
    const second = await anchorOrganization(t.db, e.org.id, key());
    expect(second?.heads.map(([chain]) => chain)).toContain(`record:${e.record.id}`);
    const result = await verify(e.org.id);
    expect(result).toMatchObject({ verified: true, anchors: 2 });
    expect(result.last_anchor?.anchored_at).toBe(second!.anchored_at);

    const published = await t.inject({ method: 'GET', url: '/api/evidence/key/' });
    expect(published.statusCode).toBe(200);
    expect(published.json()).toEqual({
      algorithm: 'Ed25519',
      public_key: key().publicKey,
      key_id: key().keyId,
    });
    const { rows } = await t.db.execute<{ payload: string; signature: string }>(
      sql`SELECT payload, signature FROM evidence_anchors WHERE organization_id = ${e.org.id}`,
    );
    for (const row of rows) {
      expect(
        signatureValid(
          published.json<{ public_key: string }>().public_key,
          row.payload,
          row.signature,
        ),
      ).toBe(true);
    }
  });

  it.each([
    {
      what: 'the newest entries of a chain removed with their row',
      tamper: (e: Evidence) => [
        sql`ALTER TABLE evidence_chain DISABLE TRIGGER USER`,
        sql`ALTER TABLE alarm_signatures DISABLE TRIGGER USER`,
        sql`DELETE FROM alarm_signatures WHERE alarm_id = ${e.alarm.id}`,
        sql`DELETE FROM evidence_chain WHERE chain = ${`record:${e.record.id}`}
              AND seq >= (SELECT seq FROM evidence_chain WHERE source = 'alarm_signatures'
                           AND chain = ${`record:${e.record.id}`})`,
        sql`ALTER TABLE evidence_chain ENABLE TRIGGER USER`,
        sql`ALTER TABLE alarm_signatures ENABLE TRIGGER USER`,
      ],
      expected: ['anchor_head_missing', null, null],
    },
    {
      what: 'an anchor forged with another key',
      tamper: (e: Evidence) => {
        const forger = signingKeyFrom('not the server secret key, but 32 characters long');
        const payload = JSON.stringify({
          organization_id: e.org.id,
          anchored_at: '',
          previous: '',
          heads: [],
        });
        return [
          sql`INSERT INTO evidence_anchors (organization_id, anchored_at, payload, public_key, signature)
              VALUES (${e.org.id}, now(), ${payload}, ${forger.publicKey}, ${signText(forger, payload)})`,
        ];
      },
      expected: ['anchor_unknown_key', 'evidence_anchors', null],
    },
    {
      what: "an anchor's signed heads edited",
      tamper: () => [
        sql`ALTER TABLE evidence_anchors DISABLE TRIGGER USER`,
        sql`UPDATE evidence_anchors SET payload = replace(payload, '"heads":[[', '"heads":[["x",1,""],[')`,
        sql`ALTER TABLE evidence_anchors ENABLE TRIGGER USER`,
      ],
      expected: ['anchor_invalid', 'evidence_anchors', null],
    },
  ])('after an anchor, names the break when $what', async ({ tamper, expected }) => {
    const e = await evidenceOf();
    await anchorOrganization(t.db, e.org.id, key());
    expect((await verify(e.org.id)).verified).toBe(true);
    await t.ownerDb.transaction(async (tx) => {
      for (const statement of tamper(e)) await tx.execute(statement);
    });
    const result = await verify(e.org.id);
    expect(result.verified).toBe(false);
    expect(kinds(result)).toContainEqual(expected);
  });

  it('verifies one organization: a break in another is not reported', async () => {
    const broken = await evidenceOf();
    const fine = await evidenceOf();
    await asOwnerUntracked(
      ['records'],
      sql`UPDATE records SET highest_recorded_temperature = 99 WHERE id = ${broken.record.id}`,
    );
    expect((await verify(broken.org.id)).verified).toBe(false);
    expect((await verify(fine.org.id)).verified).toBe(true);
  });
});

type Evidence = {
  org: TestOrg;
  record: { id: number };
  alarm: { id: number };
  auditId: string;
};
