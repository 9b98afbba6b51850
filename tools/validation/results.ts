import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { z } from 'zod';
import { REPO_ROOT } from './catalogue';

/**
 * The last test run's results: the Vitest JSON reporter's file (the unit stage)
 * and one Playwright JSON reporter file per browser shard (the browser stage),
 * all written to validation/out/results/ by `npm test` (vitest.config.ts,
 * playwright.config.ts, e2e/shards.mjs).
 */

export const RESULTS_DIR = path.resolve(
  REPO_ROOT,
  process.env.VALIDATION_RESULTS_DIR ?? 'validation/out/results',
);

export type Stage = 'unit' | 'browser';
export type Status = 'passed' | 'failed' | 'skipped' | 'not run';
export const STATUSES: Status[] = ['passed', 'failed', 'skipped', 'not run'];

export interface TestResult {
  stage: Stage;
  /** Path from the repository root, with `/`. */
  file: string;
  titlePath: string[];
  status: Status;
  /** The first line of the failure, when failed. */
  message?: string;
}

export interface RunInfo {
  stage: Stage;
  /** The results file, from the repository root (or as given). */
  source: string;
  startedAt: string;
  counts: Record<Status, number>;
}

export interface Results {
  tests: TestResult[];
  runs: RunInfo[];
  /** Test files that failed before any of their tests ran (a syntax error, a failing import), with why. */
  brokenFiles: Map<string, string>;
}

const vitestSchema = z.object({
  startTime: z.number(),
  testResults: z.array(
    z.object({
      name: z.string(),
      status: z.string(),
      message: z.string().optional(),
      assertionResults: z.array(
        z.object({
          ancestorTitles: z.array(z.string()),
          title: z.string(),
          status: z.string(),
          failureMessages: z.array(z.string()).nullish(),
        }),
      ),
    }),
  ),
});

interface PlaywrightSuite {
  title: string;
  file: string;
  specs?: {
    title: string;
    file: string;
    tests: { status: string; results: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}
const playwrightSchema = z.object({
  config: z.object({ rootDir: z.string() }),
  stats: z.object({ startTime: z.string() }),
  suites: z.array(z.custom<PlaywrightSuite>((v) => typeof v === 'object' && v !== null)),
});

const firstLine = (text: string | undefined) =>
  (text === undefined ? undefined : stripVTControlCharacters(text))
    ?.split('\n')
    .find((l) => l.trim())
    ?.trim();

const relative = (file: string) => path.relative(REPO_ROOT, file).split(path.sep).join('/');

function vitestStatus(status: string): Status {
  if (status === 'passed' || status === 'failed') return status;
  return 'skipped'; // skipped, pending, todo
}

/** Playwright's outcome of a test over its retries: expected, unexpected, flaky or skipped. */
function playwrightStatus(status: string): Status {
  if (status === 'expected' || status === 'flaky') return 'passed';
  if (status === 'unexpected') return 'failed';
  return 'skipped';
}

export function readVitest(json: unknown, source: string): Results {
  const run = vitestSchema.parse(json);
  const tests: TestResult[] = [];
  const brokenFiles = new Map<string, string>();
  for (const file of run.testResults) {
    const rel = relative(file.name);
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      brokenFiles.set(rel, firstLine(file.message) ?? 'the file failed to run');
    }
    for (const a of file.assertionResults) {
      const status = vitestStatus(a.status);
      tests.push({
        stage: 'unit',
        file: rel,
        titlePath: [...a.ancestorTitles, a.title],
        status,
        ...(status === 'failed' && { message: firstLine(a.failureMessages?.[0]) }),
      });
    }
  }
  return { tests, runs: [runInfo('unit', source, new Date(run.startTime), tests)], brokenFiles };
}

export function readPlaywright(json: unknown, source: string): Results {
  const run = playwrightSchema.parse(json);
  const tests: TestResult[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[], top: boolean) => {
    // The top suite of a file is titled with the file's path, not a describe.
    const here = top ? titles : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const status = playwrightStatus(test.status);
        tests.push({
          stage: 'browser',
          file: relative(path.join(run.config.rootDir, spec.file)),
          titlePath: [...here, spec.title],
          status,
          ...(status === 'failed' && { message: firstLine(test.results.at(-1)?.error?.message) }),
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here, false);
  };
  for (const suite of run.suites) walk(suite, [], true);
  return {
    tests,
    runs: [runInfo('browser', source, new Date(run.stats.startTime), tests)],
    brokenFiles: new Map(),
  };
}

function runInfo(stage: Stage, source: string, startedAt: Date, tests: TestResult[]): RunInfo {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  for (const t of tests) counts[t.status] += 1;
  return { stage, source, startedAt: startedAt.toISOString(), counts };
}

/** Every results file of the folder: vitest*.json and playwright*.json (one per shard). */
export function readResults(dir = RESULTS_DIR): Results {
  const all: Results = { tests: [], runs: [], brokenFiles: new Map() };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return all;
  for (const name of readdirSync(dir).sort()) {
    const reader = name.startsWith('vitest')
      ? readVitest
      : name.startsWith('playwright')
        ? readPlaywright
        : undefined;
    if (reader === undefined || !name.endsWith('.json')) continue;
    const file = path.join(dir, name);
    const source = relative(file).startsWith('..') ? file : relative(file);
    let parsed: Results;
    try {
      parsed = reader(JSON.parse(readFileSync(file, 'utf8')), source);
    } catch (error) {
      throw new Error(
        `${source} is not a ${reader === readVitest ? 'Vitest' : 'Playwright'} JSON report: ${(error as Error).message}`,
        { cause: error },
      );
    }
    all.tests.push(...parsed.tests);
    all.runs.push(...parsed.runs);
    for (const [f, m] of parsed.brokenFiles) all.brokenFiles.set(f, m);
  }
  // The unit stage first, as npm test runs it; shards in order.
  all.runs.sort((a, b) => Number(a.stage === 'browser') - Number(b.stage === 'browser'));
  return all;
}
