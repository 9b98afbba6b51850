// The browser tests as E2E_SHARDS Playwright runs side by side (default 2), each
// with a server, an embedded PostgreSQL and a data folder of its own, so that no
// test sees another's organizations (docs/decisions/test-suite.md). Arguments go
// to Playwright (a spec file, --grep ...); with arguments the default is one
// plain run, as a few tests do not pay for a second server.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { planShards, readDurations, specFiles } from './shard-plan.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const shards = Number(process.env.E2E_SHARDS ?? (args.length > 0 ? 1 : 2));
if (!Number.isInteger(shards) || shards < 1) {
  process.stderr.write(
    `E2E_SHARDS must be a whole number of at least 1, not ${process.env.E2E_SHARDS}\n`,
  );
  process.exit(2);
}
const basePort = Number(process.env.E2E_PORT ?? 8123);
const baseDataDir = process.env.E2E_DATA_DIR ?? path.join(root, '.e2e-data');
const cli = path.join(root, 'node_modules/@playwright/test/cli.js');
// The results for the validation report: one file per run (playwright.config.ts); those of an
// earlier run go first, so that the report never mixes two runs.
const resultsDir = path.resolve(
  root,
  process.env.VALIDATION_RESULTS_DIR ?? 'validation/out/results',
);
mkdirSync(resultsDir, { recursive: true });
for (const name of readdirSync(resultsDir)) {
  if (/^playwright.*\.json$/.test(name)) rmSync(path.join(resultsDir, name));
}

// The whole suite is split by file, balanced by each file's duration (shard-plan.mjs);
// with arguments (a spec, --grep) by Playwright's --shard, which counts tests.
const plan =
  shards > 1 && args.length === 0
    ? planShards(specFiles(root), readDurations(root).browser, shards)
    : undefined;

/** A file argument Playwright matches as a regular expression: this file's path and no other. */
const exactFile = (file) => `/${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;

const children = [];
const runs = Array.from({ length: shards }, (_, k) => {
  const i = k + 1;
  const sharded = shards > 1;
  const child = spawn(
    process.execPath,
    [
      cli,
      'test',
      ...(sharded ? ['--pass-with-no-tests', `--output=test-results/shard-${i}`] : []),
      ...(plan ? plan[k].map(exactFile) : sharded ? [`--shard=${i}/${shards}`] : []),
      ...args,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        // Each run's server takes 4 ports from its own (HTTP, PostgreSQL, SMTP, mail API).
        E2E_PORT: String(basePort + 10 * k),
        E2E_DATA_DIR: sharded ? `${baseDataDir}-${i}` : baseDataDir,
        E2E_RESULTS_FILE: sharded ? `playwright-${i}.json` : 'playwright.json',
      },
    },
  );
  children.push(child);
  // Each line as it comes, marked with its run.
  const prefix = sharded ? `[${i}/${shards}] ` : '';
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let rest = '';
    from.setEncoding('utf8');
    from.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) to.write(`${prefix}${line}\n`);
    });
    from.on('end', () => {
      if (rest) to.write(`${prefix}${rest}\n`);
    });
  }
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ i, code, signal })),
  );
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
const results = await Promise.all(runs);
const failed = results.filter((r) => r.code !== 0);
for (const r of failed) {
  process.stderr.write(
    `browser tests, run ${r.i} of ${shards}: failed (${r.signal ?? `exit code ${r.code}`})\n`,
  );
}
process.exit(failed.length === 0 ? 0 : 1);
