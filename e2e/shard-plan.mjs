// Which spec files each browser run takes (e2e/shards.mjs): balanced by how long each
// file took in a full run (`browser` in test-durations.json), not by how many tests it
// holds, which left one run 1.5 minutes behind the other in CI (8.0 against 6.5 min).
// The same file's `unit` part orders the unit test files longest first (vitest.config.ts).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Splits `files` into `runs` lists whose summed durations are as even as the longest-first
 * rule makes them: each file, longest first, goes to the run with the least so far. A file
 * without a duration (new since the durations were written) counts as the median one.
 * Each list keeps the files in name order, as Playwright would run them.
 *
 * @param {string[]} files spec files, relative to the repository
 * @param {Record<string, number>} durations seconds per file
 * @param {number} runs
 * @returns {string[][]}
 */
export function planShards(files, durations, runs) {
  const known = files.map((f) => durations[f]).filter((d) => typeof d === 'number');
  const sorted = [...known].sort((a, b) => a - b);
  const median = sorted.length > 0 ? sorted[Math.floor(sorted.length / 2)] : 1;
  const cost = (file) => Math.max(0.1, durations[file] ?? median);
  const plan = Array.from({ length: runs }, () => ({ files: [], total: 0 }));
  const longestFirst = [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
  for (const file of longestFirst) {
    const lightest = plan.reduce((min, run) => (run.total < min.total ? run : min));
    lightest.files.push(file);
    lightest.total += cost(file);
  }
  return plan.map((run) => run.files.sort());
}

/** The spec files of `e2e/` (relative to `root`, as the durations name them). */
export function specFiles(root) {
  return readdirSync(path.join(root, 'e2e'))
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => `e2e/${name}`)
    .sort();
}

/**
 * Seconds per spec file from Playwright JSON reports (the runs' results files): the sum
 * of its tests' durations, as `e2e/<file>`.
 *
 * @param {unknown[]} reports parsed Playwright JSON reports
 * @returns {Record<string, number>}
 */
export function durationsOf(reports) {
  const seconds = {};
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      const file = `e2e/${spec.file}`;
      for (const t of spec.tests ?? []) {
        for (const r of t.results ?? []) seconds[file] = (seconds[file] ?? 0) + r.duration / 1000;
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const report of reports) for (const suite of report.suites ?? []) visit(suite);
  return Object.fromEntries(
    Object.entries(seconds)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, s]) => [file, Math.round(s * 10) / 10]),
  );
}

/**
 * Seconds per test file from Vitest's JSON report (`testResults`, absolute names), as paths
 * relative to `root`.
 *
 * @param {{ testResults?: { name: string, startTime: number, endTime: number }[] }} report
 * @param {string} root
 * @returns {Record<string, number>}
 */
export function unitDurationsOf(report, root) {
  return Object.fromEntries(
    (report.testResults ?? [])
      .map((t) => [path.relative(root, t.name), Math.round((t.endTime - t.startTime) / 100) / 10])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/**
 * The committed durations, `{ unit, browser }` in seconds per file (each empty when the
 * file is missing or unreadable).
 *
 * @returns {{ unit: Record<string, number>, browser: Record<string, number> }}
 */
export function readDurations(root) {
  try {
    const { unit = {}, browser = {} } = JSON.parse(
      readFileSync(path.join(root, DURATIONS_FILE), 'utf8'),
    );
    return { unit, browser };
  } catch {
    return { unit: {}, browser: {} };
  }
}

export const DURATIONS_FILE = 'test-durations.json';

/**
 * `npm run test:durations`: rewrites test-durations.json from the results of a full
 * `npm test` (validation/out/results: vitest.json and the runs' playwright-*.json).
 */
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dir = path.resolve(root, process.argv[2] ?? 'validation/out/results');
  const read = (name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
  const browser = durationsOf(
    readdirSync(dir)
      .filter((name) => /^playwright.*\.json$/.test(name))
      .map(read),
  );
  const unit = unitDurationsOf(read('vitest.json'), root);
  writeFileSync(path.join(root, DURATIONS_FILE), `${JSON.stringify({ unit, browser }, null, 2)}\n`);
  process.stdout.write(
    `${DURATIONS_FILE}: ${Object.keys(unit).length} unit and ${Object.keys(browser).length} browser test files\n`,
  );
}
