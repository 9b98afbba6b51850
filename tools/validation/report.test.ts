import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Requirement } from './catalogue';
import { REPO_ROOT } from './catalogue';
import { renderHtml } from './html';
import type { Report } from './model';
import { buildReport, failedHighRisk } from './model';
import { renderPdf } from './pdf';
import type { Results } from './results';
import { readPlaywright, readVitest } from './results';
import { scanSource } from './tags';

/** The validation report from a test run's JSON results (docs/validation.md). */

const req = (id: string, risk: Requirement['risk']): Requirement => ({
  id,
  title: `the title of ${id} <b>`,
  source: 'spec',
  risk,
  reason: 'why',
});
const REQUIREMENTS = [
  req('RULE-A-1', 'high'),
  req('RULE-A-2', 'high'),
  req('SPEC-1', 'medium'),
  req('SPEC-2', 'low'),
  req('FEAT-B', 'low'),
];

const UNIT_SOURCE = `
describe('alarms [RULE-A-1]', () => {
  it('raises one', () => {});
  it.each([1, 2])('case %d [SPEC-1]', () => {});
  it('is skipped', () => {});
});
describe('other [RULE-A-2]', () => { it('never ran', () => {}); });
`;
const BROKEN_SOURCE = `it('cannot load [SPEC-2]', () => {});`;
const BROWSER_SOURCE = `test.describe('screen [RULE-A-1]', () => { test('walks [FEAT-B]', async () => {}); });`;

const vitestJson = {
  startTime: Date.UTC(2026, 11, 2, 10),
  testResults: [
    {
      name: `${REPO_ROOT}/packages/x/a.test.ts`,
      status: 'failed',
      assertionResults: [
        { ancestorTitles: ['alarms [RULE-A-1]'], title: 'raises one', status: 'passed' },
        {
          ancestorTitles: ['alarms [RULE-A-1]'],
          title: 'case 1 [SPEC-1]',
          status: 'failed',
          failureMessages: [
            '\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at a.test.ts:4',
          ],
        },
        { ancestorTitles: ['alarms [RULE-A-1]'], title: 'case 2 [SPEC-1]', status: 'passed' },
        { ancestorTitles: ['alarms [RULE-A-1]'], title: 'is skipped', status: 'skipped' },
      ],
    },
    {
      name: `${REPO_ROOT}/packages/x/b.test.ts`,
      status: 'failed',
      message: 'SyntaxError: oops\nmore',
      assertionResults: [],
    },
  ],
};
const playwrightJson = (status: string) => ({
  config: { rootDir: `${REPO_ROOT}/e2e` },
  stats: { startTime: '2026-12-02T10:05:00.000Z' },
  suites: [
    {
      title: 'c.spec.ts',
      file: 'c.spec.ts',
      suites: [
        {
          title: 'screen [RULE-A-1]',
          file: 'c.spec.ts',
          specs: [
            {
              title: 'walks [FEAT-B]',
              file: 'c.spec.ts',
              tests: [{ status, results: [{ error: { message: 'Timed out' } }] }],
            },
          ],
        },
      ],
    },
  ],
});

function report(results: Results, previous?: Report): Report {
  const staticTests = [
    ...scanSource('packages/x/a.test.ts', UNIT_SOURCE).tests,
    ...scanSource('packages/x/b.test.ts', BROKEN_SOURCE).tests,
    ...scanSource('e2e/c.spec.ts', BROWSER_SOURCE).tests,
  ];
  return buildReport({
    requirements: REQUIREMENTS,
    staticTests,
    results,
    version: '1.2.3',
    commit: 'abc123',
    uncommittedChanges: false,
    generatedAt: new Date('2026-12-02T11:00:00Z'),
    ...(previous && { previous }),
  });
}

function merged(...parts: Results[]): Results {
  return {
    tests: parts.flatMap((p) => p.tests),
    runs: parts.flatMap((p) => p.runs),
    brokenFiles: new Map(parts.flatMap((p) => [...p.brokenFiles])),
  };
}

const unit = () => readVitest(vitestJson, 'vitest.json');
const browser = (status = 'expected') =>
  readPlaywright(playwrightJson(status), 'playwright-1.json');
const byId = (r: Report) => Object.fromEntries(r.requirements.map((x) => [x.id, x]));

describe('the validation report [FEAT-VALIDATION]', () => {
  it('reads both reporters: titles, stages, results and the first line of a failure', () => {
    const u = unit();
    expect(u.tests.map((t) => [t.file, t.titlePath.at(-1), t.status])).toEqual([
      ['packages/x/a.test.ts', 'raises one', 'passed'],
      ['packages/x/a.test.ts', 'case 1 [SPEC-1]', 'failed'],
      ['packages/x/a.test.ts', 'case 2 [SPEC-1]', 'passed'],
      ['packages/x/a.test.ts', 'is skipped', 'skipped'],
    ]);
    expect(u.tests[1]!.message).toBe('AssertionError: expected 1 to be 2');
    expect(u.brokenFiles).toEqual(new Map([['packages/x/b.test.ts', 'SyntaxError: oops']]));
    expect(u.runs).toEqual([
      {
        stage: 'unit',
        source: 'vitest.json',
        startedAt: '2026-12-02T10:00:00.000Z',
        counts: { passed: 2, failed: 1, skipped: 1, 'not run': 0 },
      },
    ]);
    const b = browser('flaky');
    expect(b.tests).toEqual([
      {
        stage: 'browser',
        file: 'e2e/c.spec.ts',
        titlePath: ['screen [RULE-A-1]', 'walks [FEAT-B]'],
        status: 'passed',
      },
    ]);
    expect(browser('unexpected').tests[0]).toMatchObject({
      status: 'failed',
      message: 'Timed out',
    });
    expect(() => readVitest({ testResults: 'no' }, 'x.json')).toThrow();
  });

  it('gives each requirement the results of its tests, and what did not run', () => {
    const r = byId(report(merged(unit(), browser())));
    expect(r['RULE-A-1']!.status).toBe('failed');
    expect(r['RULE-A-1']!.counts).toEqual({ passed: 3, failed: 1, skipped: 1, 'not run': 0 });
    expect(r['RULE-A-1']!.tests.map((t) => t.title)).toContain('alarms › case 1');
    expect(r['SPEC-1']!.status).toBe('failed');
    expect(r['RULE-A-2']!.tests).toEqual([
      {
        stage: 'unit',
        file: 'packages/x/a.test.ts',
        title: 'other › never ran',
        status: 'not run',
      },
    ]);
    expect(r['RULE-A-2']!.status).toBe('not run');
    // A file that broke before its tests ran: its tests failed.
    expect(r['SPEC-2']!.tests).toEqual([
      {
        stage: 'unit',
        file: 'packages/x/b.test.ts',
        title: 'cannot load',
        status: 'failed',
        message: 'SyntaxError: oops',
      },
    ]);
    expect(r['FEAT-B']!.status).toBe('passed');
  });

  it('counts requirements by risk and result, and fails on a high-risk failure only', () => {
    const withBrowser = report(merged(unit(), browser()));
    expect(withBrowser.summary).toEqual({
      high: { passed: 0, failed: 1, skipped: 0, 'not run': 1, 'no test': 0 },
      medium: { passed: 0, failed: 1, skipped: 0, 'not run': 0, 'no test': 0 },
      low: { passed: 1, failed: 1, skipped: 0, 'not run': 0, 'no test': 0 },
    });
    expect(failedHighRisk(withBrowser).map((x) => x.id)).toEqual(['RULE-A-1']);
    expect(withBrowser.missingStages).toEqual([]);
    // Without the browser stage: its tests are not run, and that alone fails nothing.
    const unitOnly = report(readVitest({ ...vitestJson, testResults: [] }, 'vitest.json'));
    expect(unitOnly.missingStages).toEqual(['browser']);
    expect(byId(unitOnly)['FEAT-B']!.status).toBe('not run');
    expect(failedHighRisk(unitOnly)).toEqual([]);
  });

  it('says what changed since a previous report', () => {
    const before = report(merged(unit(), browser()));
    before.requirements = before.requirements.filter((x) => x.id !== 'SPEC-1');
    before.requirements.push({ ...before.requirements[0]!, id: 'RULE-OLD' });
    before.requirements[0] = {
      ...before.requirements[0]!,
      risk: 'medium',
      tests: before.requirements[0]!.tests.slice(1),
    };
    const now = report(merged(unit(), browser('unexpected')), before);
    expect(now.changes).toEqual({
      previous: { version: '1.2.3', commit: 'abc123', generatedAt: '2026-12-02T11:00:00.000Z' },
      added: ['SPEC-1'],
      removed: ['RULE-OLD'],
      riskChanged: [{ id: 'RULE-A-1', from: 'medium', to: 'high' }],
      statusChanged: [{ id: 'FEAT-B', from: 'passed', to: 'failed' }],
      testsChanged: [{ id: 'RULE-A-1', added: 1, removed: 0 }],
    });
  });

  it('renders HTML with the summary first and every text escaped, and a PDF', async () => {
    const r = report(merged(unit(), browser()));
    const html = renderHtml(r);
    expect(html.indexOf('requirements by risk and result')).toBeLessThan(
      html.indexOf('id="RULE-A-1"'),
    );
    expect(html).toContain('the title of RULE-A-1 &lt;b&gt;');
    expect(html).not.toContain('RULE-A-1 <b>');
    expect(html).toContain('Version 1.2.3, commit abc123');
    const pdf = await renderPdf(r);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('npm run validation-report [FEAT-VALIDATION]', () => {
  const run = (results: string, out: string) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', 'tools/validation/cli.ts', '--results', results, '--out', out],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
  const unitRun = (status: string) => ({
    startTime: Date.now(),
    testResults: [
      {
        name: `${REPO_ROOT}/packages/domain/src/excursions.test.ts`,
        status,
        assertionResults: [
          { ancestorTitles: ['detectExcursions [RULE-ALARM-4]'], title: 'a run', status },
        ],
      },
    ],
  });

  it('writes the three files; a missing stage passes, a failed high-risk test exits 1, no results 2', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'validation-report-'));
    const results = path.join(dir, 'results');
    mkdirSync(results);
    writeFileSync(path.join(results, 'vitest.json'), JSON.stringify(unitRun('passed')));
    const passed = run(results, path.join(dir, 'a'));
    expect(passed.status, passed.stderr).toBe(0);
    expect(passed.stdout).toContain('browser: no results (not run)');
    const written = JSON.parse(readFileSync(path.join(dir, 'a/validation-report.json'), 'utf8'));
    expect(written.requirements.find((r: { id: string }) => r.id === 'RULE-ALARM-4').status).toBe(
      'passed',
    );
    expect(readFileSync(path.join(dir, 'a/validation-report.pdf')).subarray(0, 5).toString()).toBe(
      '%PDF-',
    );
    expect(readFileSync(path.join(dir, 'a/validation-report.html'), 'utf8')).toContain(
      'RULE-ALARM-4',
    );

    writeFileSync(path.join(results, 'vitest.json'), JSON.stringify(unitRun('failed')));
    const failed = run(results, path.join(dir, 'b'));
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('high-risk requirements with a failed test: RULE-ALARM-4');

    const none = run(path.join(dir, 'nothing'), path.join(dir, 'c'));
    expect(none.status).toBe(2);
    expect(existsSync(path.join(dir, 'c'))).toBe(false);
    rmSync(dir, { recursive: true });
  }, 60_000);
});
