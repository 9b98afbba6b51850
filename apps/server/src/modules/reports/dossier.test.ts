import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZEvidenceKey, ZFileReference } from '@coldtrace/contract';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
  type TestClient,
  type TestOrg,
} from '../../../test/helpers';
import { epoch, iso, serial, xt1Body } from '../../../test/shipment-factories';
import { anchorOrganization, organizationKeyFrom, signingKeyFrom, signText } from '../evidence';
import { entryHash, type ChainEntry } from '../evidence/chain';

const XT1 = '/api/devices/xt1';
const VERIFIER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../tools/verify-dossier/verify-dossier.mjs',
);

/** 1,100 points at 60 s (two series chunks), high 8 and low 2: one excursion above at 500-509. */
const TEMPS = Array.from({ length: 1100 }, (_, i) =>
  i >= 500 && i < 510 ? 9.5 : 5 + (i % 7) / 10,
);

interface Verdict {
  ok: boolean;
  facts: Record<string, unknown>;
  problems: { file: string; message: string }[];
}

/** The offline verifier, as a user runs it: a child process on a file, no server. */
function verifyFile(bytes: Uint8Array, ...args: string[]): { status: number; verdict: Verdict } {
  const dir = mkdtempSync(path.join(tmpdir(), 'dossier-'));
  const file = path.join(dir, 'dossier.zip');
  writeFileSync(file, bytes);
  try {
    const out = execFileSync(process.execPath, [VERIFIER, file, '--json', ...args]);
    return { status: 0, verdict: JSON.parse(out.toString('utf8')) as Verdict };
  } catch (error) {
    const e = error as { status: number; stdout: Buffer; stderr: Buffer };
    if (e.status !== 1) {
      throw new Error(`the verifier failed: ${e.stderr.toString('utf8')}`, { cause: error });
    }
    return { status: e.status, verdict: JSON.parse(e.stdout.toString('utf8')) as Verdict };
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('the shipment dossier (issue 37 item 2) [FEAT-DOSSIER]', () => {
  let t: TestApp;
  let manager: TestClient;
  let org: TestOrg;
  let orgId: string;
  let recordId: string;
  let dossier: Uint8Array;
  let orgKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Manager' });
    manager = signedIn.client;
    org = signedIn.orgs[0]!;
    orgId = org.id;
    const sn = serial('DOS');
    const start = epoch(new Date()) - 2 * 86_400;
    const post = async (p: string, body: Record<string, unknown>) => {
      const res = await manager.post(`${XT1}/${p}`, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { record_id: string };
    };
    ({ record_id: recordId } = await post(
      'start-action/',
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start) }),
    ));
    await post(
      'scans/',
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 66_000), temps: TEMPS }),
    );
    await post(
      'stop-action/',
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 66_100) }),
    );
    await post('alarm-acknowledge/', {
      record_ids: [recordId],
      comment: 'Within the stability budget',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    await post('records/disposition/', {
      record_id: recordId,
      decision: 'RELEASED',
      comment: 'Released after review',
      password: TEST_PASSWORD,
    });
    await anchorOrganization(t.db, orgId, signingKeyFrom(t.app.config.secretKey));

    const ref = await manager.post(`${XT1}/reports/dossier/`, { record_id: recordId });
    expect(ref.statusCode, ref.body).toBe(200);
    const { localUrl, fileName } = ZFileReference.parse(ref.json());
    expect(fileName).toMatch(new RegExp(`^record-${recordId}-DOS-[0-9a-f]+-dossier\\.zip$`));
    const file = await manager.get(localUrl!);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    dossier = new Uint8Array(file.rawPayload);
    // The organization's key, as anyone reads it from the server.
    const key = await t.app.inject({ url: `/api/evidence/key/?organization_id=${orgId}` });
    orgKey = ZEvidenceKey.parse(key.json()).public_key;
  });
  afterAll(() => t.close());

  const files = () => unzipSync(dossier);
  const json = <T>(f: Record<string, Uint8Array>, name: string) =>
    JSON.parse(strFromU8(f[name]!)) as T;

  /** The dossier with `change` applied to its files, its manifest rewritten and signed again with the organization's key (an insider's forgery). */
  function forged(change: (f: Record<string, Uint8Array>) => void): Uint8Array {
    const f = files();
    change(f);
    const manifest = json<{ files: { path: string; bytes: number; sha256: string }[] }>(
      f,
      'manifest.json',
    );
    manifest.files = manifest.files.map(({ path: p }) => ({
      path: p,
      bytes: f[p]!.length,
      sha256: sha256(f[p]!),
    }));
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    f['manifest.json'] = strToU8(text);
    f['manifest.sig'] = strToU8(signText(organizationKeyFrom(t.app.config.secretKey, orgId), text));
    return zipSync(f);
  }

  const messages = (v: Verdict) => v.problems.map((p) => `${p.file}: ${p.message}`);

  it('holds the series, alarms with versions, signatures, decision, budget, calibration, trail and PDF', () => {
    const f = files();
    expect(Object.keys(f).sort()).toEqual([
      'README.txt',
      'alarms.json',
      'audit.json',
      'calibration.json',
      'decisions.json',
      'evidence/anchor.json',
      'evidence/chain.json',
      'evidence/rows.json',
      'manifest.json',
      'manifest.sig',
      'record.json',
      'report.pdf',
      'series.csv',
      'stability-budget.json',
    ]);
    const series = strFromU8(f['series.csv']!).trim().split('\n');
    expect(series[0]).toBe('index,time_utc,temperature_c');
    expect(series).toHaveLength(1 + TEMPS.length);
    expect(series[501]).toMatch(/^500,\d{4}-\d\d-\d\dT[\d:.]+Z,9\.5$/);
    const alarms = json<{ acknowledged: boolean; versions: { op: string }[] }[]>(f, 'alarms.json');
    expect(alarms.filter((a) => a.acknowledged)).toHaveLength(alarms.length);
    // Raised, then acknowledged: each version kept.
    expect(alarms[0]!.versions.length).toBeGreaterThanOrEqual(2);
    const decisions = json<{ decision: string; printed_name: string }[]>(f, 'decisions.json');
    expect(decisions.map((d) => d.decision)).toEqual(['RELEASED']);
    expect(strFromU8(f['report.pdf']!.subarray(0, 5))).toBe('%PDF-');
    const manifest = json<{ signer: { public_key: string }; evidence: { head: { seq: number } } }>(
      f,
      'manifest.json',
    );
    expect(manifest.signer.public_key).toBe(orgKey);
    expect(manifest.evidence.head.seq).toBe(json<unknown[]>(f, 'evidence/chain.json').length);
  });

  it('verifies offline, with the key the server publishes for the organization', () => {
    const { status, verdict } = verifyFile(dossier, '--key', orgKey);
    expect(messages(verdict)).toEqual([]);
    expect(status).toBe(0);
    expect(verdict.facts).toMatchObject({
      record_id: recordId,
      anchor: { seq: expect.any(Number) },
    });
  });

  it("refuses another organization's key, and a key derived for another organization differs", () => {
    const other = organizationKeyFrom(t.app.config.secretKey, crypto.randomUUID()).publicKey;
    expect(other).not.toBe(orgKey);
    const { status, verdict } = verifyFile(dossier, '--key', other);
    expect(status).toBe(1);
    expect(messages(verdict)).toEqual([expect.stringMatching(/^manifest\.json: is signed by key/)]);
  });

  it("publishes each organization's key, and names a malformed id", async () => {
    const bad = await t.app.inject({ url: '/api/evidence/key/?organization_id=nope' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['organization_id']);
    const server = ZEvidenceKey.parse((await t.app.inject({ url: '/api/evidence/key/' })).json());
    expect(server.public_key).toBe(signingKeyFrom(t.app.config.secretKey).publicKey);
    expect(server.public_key).not.toBe(orgKey);
  });

  it('refuses a byte changed anywhere: in the series, the signature, the PDF', () => {
    const text = Buffer.from(dossier);
    const at = (needle: string) => text.indexOf(Buffer.from(needle));
    // The PDF is stored uncompressed: its header's bytes are in the zip as they are.
    for (const offset of [at('%PDF-') + 2, at('manifest.sig') + 40, Math.floor(text.length / 3)]) {
      const altered = Buffer.from(text);
      altered[offset] = altered[offset]! ^ 0x01;
      const { status, verdict } = verifyFile(altered);
      expect(status, `byte ${offset}`).toBe(1);
      expect(verdict.ok).toBe(false);
    }
  });

  it('names a changed file when the zip is rebuilt around it', () => {
    const f = files();
    f['series.csv'] = strToU8(strFromU8(f['series.csv']!).replace(',9.5\n', ',7.5\n'));
    const { verdict } = verifyFile(zipSync(f));
    expect(messages(verdict)).toEqual([
      'series.csv: is not the file the manifest lists (its SHA-256 differs)',
      'series.csv: 1 readings differ from the stored series (the first at index 500)',
    ]);
  });

  it('an insider who signs again still cannot change a reading, a signature or the trail', () => {
    const series = verifyFile(
      forged((f) => {
        f['series.csv'] = strToU8(strFromU8(f['series.csv']!).replace(',9.5\n', ',7.5\n'));
      }),
    ).verdict;
    expect(messages(series)).toEqual([
      'series.csv: 1 readings differ from the stored series (the first at index 500)',
    ]);

    const signature = verifyFile(
      forged((f) => {
        const alarms = json<{ signature?: { printed_name: string } }[]>(f, 'alarms.json');
        alarms[0]!.signature!.printed_name = 'Someone Else';
        f['alarms.json'] = strToU8(JSON.stringify(alarms));
      }),
    ).verdict;
    expect(messages(signature)).toEqual([
      expect.stringMatching(/^alarms\.json: a signature of alarm \d+ is not a stored one$/),
    ]);

    const trail = verifyFile(
      forged((f) => {
        const audit = json<{ action: string }[]>(f, 'audit.json');
        f['audit.json'] = strToU8(JSON.stringify(audit.slice(1)));
      }),
    ).verdict;
    expect(messages(trail)).toEqual(['audit.json: differs from the stored trail about the record']);
  });

  it('changing the hashed rows too breaks the chain; rewriting the chain breaks the anchor', () => {
    type Row = { source: string; key: string; content: string };
    const chunk = (f: Record<string, Uint8Array>) => {
      const rows = json<Row[]>(f, 'evidence/rows.json');
      const row = rows.find((r) => r.source === 'record_series_chunks')!;
      row.content = row.content.replace('9.5', '7.5');
      f['evidence/rows.json'] = strToU8(JSON.stringify(rows));
      f['series.csv'] = strToU8(strFromU8(f['series.csv']!).replace(',9.5\n', ',7.5\n'));
      return row;
    };
    const rows = verifyFile(forged(chunk)).verdict;
    expect(messages(rows)).toEqual([
      expect.stringMatching(
        /^evidence\/rows\.json: record_series_chunks \d+\/0 is not the version of entry \d+/,
      ),
    ]);

    // The chain rewritten to match (digest and every hash after it): the server's anchor no longer holds.
    const chain = verifyFile(
      forged((f) => {
        const row = chunk(f);
        const entries = json<ChainEntry[]>(f, 'evidence/chain.json');
        let previous: string | null = null;
        for (const e of entries) {
          if (e.source === row.source && e.rowKey === row.key) {
            e.digestHex = createHash('sha256').update(row.content).digest('hex');
          }
          e.hashHex = entryHash(previous, e);
          previous = e.hashHex;
        }
        f['evidence/chain.json'] = strToU8(JSON.stringify(entries));
        const manifest = json<{ evidence: { head: { hash: string } } }>(f, 'manifest.json');
        manifest.evidence.head.hash = previous!;
        f['manifest.json'] = strToU8(JSON.stringify(manifest));
      }),
    ).verdict;
    expect(messages(chain)).toEqual([
      expect.stringMatching(
        /^evidence\/anchor\.json: entry \d+, which the anchor signed, is not in the chain as signed$/,
      ),
    ]);
  });

  it('a file removed or added is named', () => {
    const f = files();
    delete f['report.pdf'];
    f['extra.txt'] = strToU8('not in the manifest');
    const { verdict } = verifyFile(zipSync(f));
    expect(messages(verdict)).toEqual([
      'report.pdf: is listed in the manifest but missing',
      'extra.txt: is in the dossier but not in the manifest',
    ]);
  });

  it('is 404 for another organization, and refused while a data display rule hides fields', async () => {
    const { client: stranger } = await t.signIn({ role: 'Administrator' });
    const elsewhere = await stranger.post(`${XT1}/reports/dossier/`, { record_id: recordId });
    expect(elsewhere.statusCode).toBe(404);

    const { client: admin } = await t.signIn({ role: 'Administrator', orgs: [org] });
    const rule = await admin.post('/api/data-display-rules/', { hidden_fields: ['po_number'] });
    expect(rule.statusCode, rule.body).toBe(200);
    const refused = await manager.post(`${XT1}/reports/dossier/`, { record_id: recordId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'A data display rule hides fields from you; the dossier holds the complete record.',
    );
  });
});
