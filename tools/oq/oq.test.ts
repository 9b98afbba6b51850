import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, verifyReportFile, writeReportFiles } from './src/files';
import type { OqReport } from './src/report';
import { runOq } from './src/suite';

/**
 * The OQ suite against a real server: `apps/server/src/server.ts` started as a child
 * process on a fresh data folder (embedded PostgreSQL, first-start seed, no demo data),
 * as the browser tests start it (e2e/start-server.mjs). The CLI runs as a customer runs
 * it; then a wrong expectation shows the suite can fail.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const ADMIN = { email: 'oq-admin@coldtrace.local', password: 'oq-Admin-Password-1' };
/** The report of the passing run is kept here (with PNG pages when pdftoppm is installed). */
const REPORT_DIR = process.env.OQ_REPORT_DIR ?? path.join(ROOT, 'test-results/oq');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

let child: ChildProcess | undefined;
let dataDir = '';
let baseUrl = '';
let serverLog = '';

async function waitForHealth(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (child?.exitCode !== null) throw new Error(`the server exited:\n${serverLog}`);
    const ok = await fetch(`${url}/api/health/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer in time:\n${serverLog}`);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'coldtrace-oq-'));
  const port = await freePort();
  const pgPort = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [TSX, 'apps/server/src/server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(pgPort),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: baseUrl,
    },
  });
  const keep = (chunk: Buffer) => (serverLog = (serverLog + chunk.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await waitForHealth(baseUrl, Date.now() + 90_000);
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

// The OQ run proves these requirements on a real server (tools/oq/src/requirements.ts).
describe('the OQ suite against a running server [RULE-SERIES-2, RULE-SERIES-3, RULE-ALARM-4, RULE-ALARM-5, RULE-ALARM-6, RULE-SUMMARY-1, RULE-SUMMARY-2, RULE-TRIP-3, RULE-AUDIT-1, RULE-AUDIT-2, RULE-AUDIT-4, FEAT-E-SIGNATURE, FEAT-EVIDENCE-CHAIN, FEAT-STABILITY-BUDGET, FEAT-REVIEW-QUEUE]', () => {
  it('passes every check through the CLI and writes a signed report', () => {
    rmSync(REPORT_DIR, { recursive: true, force: true });
    const run = spawnSync(
      process.execPath,
      [
        TSX,
        'tools/oq/cli.ts',
        '--base-url',
        baseUrl,
        '--admin',
        ADMIN.email,
        '--operator',
        'OQ test (Vitest)',
        '--out',
        REPORT_DIR,
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, OQ_PASSWORD: ADMIN.password } },
    );
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    const file = path.join(REPORT_DIR, REPORT_FILES.json);
    const report = JSON.parse(readFileSync(file, 'utf8')) as OqReport;
    expect(report.checks.filter((c) => !c.pass)).toEqual([]);
    expect(report.result).toBe('PASS');
    expect(report.checks.length).toBeGreaterThan(90);
    expect(report.requirements.every((r) => r.result === 'PASS')).toBe(true);
    expect(report.operator.label).toBe('OQ test (Vitest)');
    expect(report.instance.base_url).toBe(baseUrl);
    expect(report.organization.name).toMatch(/^OQ test organization \d{8}T\d{6}\.\d{3}Z /);
    for (const f of Object.values(REPORT_FILES))
      expect(existsSync(path.join(REPORT_DIR, f))).toBe(true);
    expect(readFileSync(path.join(REPORT_DIR, REPORT_FILES.pdf)).subarray(0, 5).toString()).toBe(
      '%PDF-',
    );

    // The signature holds, and any change to the record breaks it.
    expect(verifyReportFile(file)).toEqual([]);
    const signature = JSON.parse(
      readFileSync(path.join(REPORT_DIR, REPORT_FILES.signature), 'utf8'),
    ) as { key_fingerprint: string };
    expect(run.stdout).toContain(signature.key_fingerprint);
    expect(verifyReportFile(file, '00'.repeat(32))).toContain(
      `signed with key ${signature.key_fingerprint}, not with ${'00'.repeat(32)}`,
    );
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('"result": "PASS"', '"result": "FAIL"'));
    expect(verifyReportFile(file)).toContain('the signature does not verify');
    writeFileSync(file, original);

    // Pages to look at (CI keeps test-results/): pdftoppm from poppler-utils, when installed.
    const pdftoppm = spawnSync('pdftoppm', [
      '-png',
      '-r',
      '60',
      path.join(REPORT_DIR, REPORT_FILES.pdf),
      path.join(REPORT_DIR, 'oq-report'),
    ]);
    if (pdftoppm.error === undefined) expect(pdftoppm.status).toBe(0);
  }, 60_000);

  it('fails the checks whose expectation is wrong, and only those', async () => {
    const result = await runOq({
      baseUrl,
      email: ADMIN.email,
      password: ADMIN.password,
      overrides: { 'A.mkt': 5.5, 'C.release-in-transit.status': 200 },
    });
    const failed = result.checks.filter((c) => !c.pass);
    expect(failed.map((c) => [c.id, c.expected, c.actual])).toEqual([
      ['A.mkt', 5.5, expect.closeTo(5.402, 2)],
      ['C.release-in-transit.status', 200, 409],
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), 'coldtrace-oq-report-'));
    try {
      const { report } = await writeReportFiles(dir, result, {});
      expect(report.result).toBe('FAIL');
      const verdicts = Object.fromEntries(report.requirements.map((r) => [r.id, r.result]));
      expect(verdicts['RULE-SUMMARY-2']).toBe('FAIL');
      expect(verdicts['RULE-AUDIT-4']).toBe('FAIL');
      expect(Object.values(verdicts).filter((v) => v === 'FAIL')).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
