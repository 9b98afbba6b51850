import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, loadCatalogue } from './catalogue';
import type { Report } from './model';
import { REPORT_FORMAT, buildReport, failedHighRisk } from './model';
import { renderHtml } from './html';
import { renderPdf } from './pdf';
import { RESULTS_DIR, readResults } from './results';
import { scanRepository } from './tags';
import { countsText } from './text';

/**
 * `npm run validation-report [-- --previous FILE] [--results DIR] [--out DIR]`:
 * the last test run's results and the requirement catalogue as
 * validation-report.{json,html,pdf} (docs/validation.md).
 *
 * Exit codes: 0 written; 1 written, and a high-risk requirement has a failed
 * test; 2 nothing written (no results at all, a malformed catalogue or results
 * file, a previous report that is not one). A stage without results (not run)
 * is reported, its tests as not run, and does not fail.
 */

const USAGE =
  'usage: npm run validation-report -- [--previous validation-report.json] [--results DIR] [--out DIR]';

function git(...args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

function readPrevious(file: string): Report {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Partial<Report>;
  if (json.format !== REPORT_FORMAT || !Array.isArray(json.requirements)) {
    throw new Error(`${file} is not a validation report (format ${REPORT_FORMAT})`);
  }
  return json as Report;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      previous: { type: 'string' },
      results: { type: 'string', default: RESULTS_DIR },
      out: { type: 'string', default: path.join(REPO_ROOT, 'validation/out') },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const results = readResults(path.resolve(values.results));
  if (results.runs.length === 0) {
    process.stderr.write(
      `validation report: no test results in ${values.results} (run npm test first)\n`,
    );
    return 2;
  }
  const root = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const report = buildReport({
    requirements: loadCatalogue(),
    staticTests: scanRepository().tests,
    results,
    version: root.version,
    commit: git('rev-parse', 'HEAD') ?? process.env.GITHUB_SHA ?? 'unknown',
    uncommittedChanges: (git('status', '--porcelain', '--untracked-files=no') ?? '') !== '',
    generatedAt: new Date(),
    ...(values.previous !== undefined && { previous: readPrevious(values.previous) }),
  });
  const out = path.resolve(values.out);
  mkdirSync(out, { recursive: true });
  const base = path.join(out, 'validation-report');
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.html`, renderHtml(report));
  writeFileSync(`${base}.pdf`, await renderPdf(report));

  const shown = path.relative(process.cwd(), base) || base;
  process.stdout.write(`validation report: ${shown}.{json,html,pdf}\n`);
  for (const run of report.runs)
    process.stdout.write(`  ${run.stage}: ${countsText(run.counts)} (${run.source})\n`);
  for (const stage of report.missingStages)
    process.stdout.write(`  ${stage}: no results (not run)\n`);
  const failed = failedHighRisk(report);
  if (failed.length > 0) {
    process.stderr.write(
      `validation report: high-risk requirements with a failed test: ${failed.map((r) => r.id).join(', ')}\n`,
    );
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `validation report: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`,
    );
    process.exit(2);
  },
);
