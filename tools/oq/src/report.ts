import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { Check } from './checks';
import { oqRequirements } from './requirements';
import type { OqResult } from './suite';

/**
 * The OQ report: a JSON document (the record), signed with Ed25519 in a detached
 * signature file, and the same content as HTML (and PDF, report-pdf.ts) for people.
 */

export const REPORT_FORMAT = 'coldtrace-oq-report/1';
export const SIGNATURE_FORMAT = 'coldtrace-oq-signature/1';

export interface RequirementResult {
  id: string;
  title: string;
  source: string;
  risk: string;
  result: 'PASS' | 'FAIL' | 'NOT TESTED';
  checks: string[];
}

export interface OqReport {
  format: typeof REPORT_FORMAT;
  result: 'PASS' | 'FAIL';
  totals: { checks: number; passed: number; failed: number; requirements: number };
  instance: { base_url: string; api_version: string; evidence_key_id: string | null };
  suite: { version: string; requirement_ids: string };
  operator: {
    label: string;
    user_id: string;
    username: string;
    name: string;
    email: string | null;
  };
  started_at: string;
  finished_at: string;
  organization: { id: string; name: string; left_in_place: true };
  records: Record<string, string>;
  requirements: RequirementResult[];
  checks: Check[];
}

export function buildReport(
  result: OqResult,
  options: { operatorLabel?: string; suiteVersion: string },
): OqReport {
  const requirements = oqRequirements().map((r): RequirementResult => {
    const checks = result.checks.filter((c) => (c.requirements as string[]).includes(r.id));
    const verdict =
      checks.length === 0 ? 'NOT TESTED' : checks.every((c) => c.pass) ? 'PASS' : 'FAIL';
    return {
      id: r.id,
      title: r.title,
      source: r.source,
      risk: r.risk,
      result: verdict,
      checks: checks.map((c) => c.id),
    };
  });
  const failed = result.checks.filter((c) => !c.pass).length;
  const o = result.operator;
  return {
    format: REPORT_FORMAT,
    result: failed === 0 && requirements.every((r) => r.result === 'PASS') ? 'PASS' : 'FAIL',
    totals: {
      checks: result.checks.length,
      passed: result.checks.length - failed,
      failed,
      requirements: requirements.length,
    },
    instance: {
      base_url: result.instance.baseUrl,
      api_version: result.instance.apiVersion,
      evidence_key_id: result.instance.evidenceKeyId,
    },
    suite: {
      version: options.suiteVersion,
      requirement_ids: 'validation/requirements (the repository catalogue)',
    },
    operator: {
      label: options.operatorLabel ?? (o.email ? `${o.name} <${o.email}>` : o.name),
      user_id: o.userId,
      username: o.username,
      name: o.name,
      email: o.email,
    },
    started_at: result.startedAt,
    finished_at: result.finishedAt,
    organization: { ...result.organization, left_in_place: true },
    records: result.records,
    requirements,
    checks: result.checks,
  };
}

/** The report's bytes as written to oq-report.json (what the signature covers). */
export function reportBytes(report: OqReport): Buffer {
  return Buffer.from(`${JSON.stringify(report, null, 2)}\n`, 'utf8');
}

export interface ReportSignature {
  format: typeof SIGNATURE_FORMAT;
  algorithm: 'Ed25519';
  signed_file: string;
  sha256: string;
  /** SubjectPublicKeyInfo, PEM. */
  public_key: string;
  /** SHA-256 of the public key's DER (hex): compare it with the one you hold. */
  key_fingerprint: string;
  key_source: 'operator' | 'generated for this run';
  signature: string;
}

/** The operator's Ed25519 private key (PEM), or a new one for this run. */
export function signingKey(pem?: string): {
  key: KeyObject;
  source: ReportSignature['key_source'];
} {
  if (pem === undefined)
    return { key: generateKeyPairSync('ed25519').privateKey, source: 'generated for this run' };
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(
      `the signing key is ${key.asymmetricKeyType ?? 'not a private key'}, not Ed25519`,
    );
  }
  return { key, source: 'operator' };
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function fingerprint(key: KeyObject): string {
  const publicKey = key.type === 'public' ? key : createPublicKey(key);
  return sha256(publicKey.export({ type: 'spki', format: 'der' }));
}

export function signReport(
  bytes: Buffer,
  file: string,
  key: KeyObject,
  source: ReportSignature['key_source'],
): ReportSignature {
  const publicKey = createPublicKey(key);
  return {
    format: SIGNATURE_FORMAT,
    algorithm: 'Ed25519',
    signed_file: file,
    sha256: sha256(bytes),
    public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    key_fingerprint: fingerprint(publicKey),
    key_source: source,
    signature: sign(null, bytes, key).toString('base64'),
  };
}

/** What is wrong with a signed report (empty: it verifies); `expectedFingerprint` pins the key. */
export function verifyReport(
  bytes: Buffer,
  signature: ReportSignature,
  expectedFingerprint?: string,
): string[] {
  const problems: string[] = [];
  if (signature.algorithm !== 'Ed25519') problems.push(`unknown algorithm ${signature.algorithm}`);
  if (sha256(bytes) !== signature.sha256)
    problems.push(
      `the report's SHA-256 is ${sha256(bytes)}, the signature says ${signature.sha256}`,
    );
  const key = createPublicKey(signature.public_key);
  if (fingerprint(key) !== signature.key_fingerprint)
    problems.push('the key fingerprint does not match the public key');
  if (expectedFingerprint !== undefined && expectedFingerprint.toLowerCase() !== fingerprint(key)) {
    problems.push(`signed with key ${fingerprint(key)}, not with ${expectedFingerprint}`);
  }
  if (!verify(null, bytes, key, Buffer.from(signature.signature, 'base64')))
    problems.push('the signature does not verify');
  return problems;
}

/** How a value reads in the HTML and PDF tables. */
export function shown(value: unknown, unit?: string): string {
  if (value === undefined) return '(missing)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return unit && typeof value === 'number' ? `${text} ${unit}` : text;
}

export function toleranceText(c: Check): string {
  if (c.comparison === 'contains') return 'contains';
  if (c.comparison === 'equals') return 'exact';
  return c.tolerance ? `± ${c.tolerance}${c.unit ? ` ${c.unit}` : ''}` : 'exact';
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

/** The report as one HTML page (no scripts, no external resources). */
export function reportHtml(report: OqReport, signature: ReportSignature): string {
  const e = escapeHtml;
  const verdict = (r: string) => `<td class="${r === 'PASS' ? 'pass' : 'fail'}">${e(r)}</td>`;
  const facts: [string, string][] = [
    [
      'Result',
      `${report.result}: ${report.totals.passed} of ${report.totals.checks} checks passed`,
    ],
    ['Instance', report.instance.base_url],
    [
      'Instance version',
      `API ${report.instance.api_version}; evidence key ${report.instance.evidence_key_id ?? 'none'}`,
    ],
    [
      'Suite',
      `Coldtrace OQ ${report.suite.version}; requirement ids: ${report.suite.requirement_ids}`,
    ],
    ['Operator', `${report.operator.label} (signed in as ${report.operator.username})`],
    ['Run', `${report.started_at} to ${report.finished_at} (UTC)`],
    [
      'Test organization',
      `${report.organization.name} (id ${report.organization.id}), left in place`,
    ],
    [
      'Records',
      Object.entries(report.records)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
    ],
    ['Report SHA-256', signature.sha256],
    ['Signed by key', `Ed25519 ${signature.key_fingerprint} (${signature.key_source})`],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Coldtrace OQ report ${e(report.started_at)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;color:#1f2933;margin:2rem auto;max-width:72rem;padding:0 1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}th,td{border:1px solid #cbd2d9;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f5f7fa}.pass{color:#1b5e20;font-weight:600}.fail{color:#b71c1c;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0;word-break:break-all}
</style></head><body>
<h1>Coldtrace operational qualification (OQ) report</h1>
<dl>${facts.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>
<h2>Requirements</h2>
<table><thead><tr><th>Requirement</th><th>Title</th><th>Source</th><th>Risk</th><th>Checks</th><th>Result</th></tr></thead><tbody>
${report.requirements.map((r) => `<tr><td>${e(r.id)}</td><td>${e(r.title)}</td><td>${e(r.source)}</td><td>${e(r.risk)}</td><td>${r.checks.length}</td>${verdict(r.result)}</tr>`).join('\n')}
</tbody></table>
<h2>Checks</h2>
<table><thead><tr><th>Check</th><th>What</th><th>Expected</th><th>Actual</th><th>Tolerance</th><th>Requirements</th><th>Result</th></tr></thead><tbody>
${report.checks.map((c) => `<tr><td>${e(c.id)}</td><td>${e(c.title)}</td><td>${e(shown(c.expected, c.unit))}</td><td>${e(shown(c.actual, c.unit))}</td><td>${e(toleranceText(c))}</td><td>${e(c.requirements.join(', '))}</td>${verdict(c.pass ? 'PASS' : 'FAIL')}</tr>`).join('\n')}
</tbody></table>
<p>The record of this run is <code>oq-report.json</code>; its signature is <code>oq-report.sig.json</code>
(check it with <code>npm run oq -- --verify oq-report.json</code>). The expected values are worked out by hand in
<code>tools/oq/src/fixtures.ts</code>.</p>
</body></html>
`;
}
