import type { Requirement, Risk } from './catalogue';
import { RISKS } from './catalogue';
import type { Results, RunInfo, Stage, Status } from './results';
import { STATUSES } from './results';
import type { StaticTest } from './tags';
import { ANY, tagsOf } from './tags';

/**
 * The validation report's content (docs/validation.md), as written to
 * validation-report.json and rendered to HTML and PDF: each requirement with
 * its risk, the tests tagged with it and their results, the runs, the version
 * and commit, and what changed since a previous report.
 */

export const REPORT_FORMAT = 'coldtrace-validation-report/1';

/** A requirement with no test in the sources at all (possible for medium and low risk only). */
export type RequirementStatus = Status | 'no test';
export const REQUIREMENT_STATUSES: RequirementStatus[] = [...STATUSES, 'no test'];

export interface ReportTest {
  stage: Stage;
  file: string;
  /** Describe titles and the test's, joined with ' › '. */
  title: string;
  status: Status;
  message?: string;
}

export interface ReportRequirement extends Requirement {
  status: RequirementStatus;
  counts: Record<Status, number>;
  tests: ReportTest[];
}

export interface Changes {
  previous: { version: string; commit: string; generatedAt: string };
  added: string[];
  removed: string[];
  riskChanged: { id: string; from: Risk; to: Risk }[];
  statusChanged: { id: string; from: RequirementStatus; to: RequirementStatus }[];
  testsChanged: { id: string; added: number; removed: number }[];
}

export interface Report {
  format: typeof REPORT_FORMAT;
  product: string;
  version: string;
  commit: string;
  /** The working tree had changes not in the commit. */
  uncommittedChanges: boolean;
  generatedAt: string;
  runs: RunInfo[];
  /** Stages with no results file: not run. */
  missingStages: Stage[];
  summary: Record<Risk, Record<RequirementStatus, number>>;
  requirements: ReportRequirement[];
  changes: Changes | null;
}

const STAGE_OF_FILE = (file: string): Stage => (file.startsWith('e2e/') ? 'browser' : 'unit');

/** A title as people read it: without its tag brackets. */
const untagged = (title: string) => title.replace(/\s*\[(SPEC|RULE|FEAT)-[^\]]*\]/g, '');
const join = (titlePath: string[]) => titlePath.map(untagged).join(' › ');

/** A static title path as a pattern over the titles of the run (`%s` of `.each`, `${…}`, computed titles). */
function titlePattern(titlePath: string[]): RegExp {
  const part = (title: string) =>
    title
      .split(ANY)
      .map((piece) =>
        piece
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace(/%[sdifjoO#]/g, '.*')
          .replace(/\\\$[\w.]+/g, '.*'),
      )
      .join('.*');
  return new RegExp(`^${titlePath.map(untagged).map(part).join(' › ')}$`, 's');
}

function statusOf(tests: ReportTest[]): RequirementStatus {
  if (tests.length === 0) return 'no test';
  if (tests.some((t) => t.status === 'failed')) return 'failed';
  if (tests.some((t) => t.status === 'passed')) return 'passed';
  if (tests.some((t) => t.status === 'skipped')) return 'skipped';
  return 'not run';
}

export interface ReportInput {
  requirements: Requirement[];
  staticTests: StaticTest[];
  results: Results;
  version: string;
  commit: string;
  uncommittedChanges: boolean;
  generatedAt: Date;
  previous?: Report;
}

export function buildReport(input: ReportInput): Report {
  const { requirements, staticTests, results } = input;
  const byRequirement = new Map<string, ReportTest[]>(requirements.map((r) => [r.id, []]));
  const add = (ids: string[], test: ReportTest) => {
    for (const id of new Set(ids)) byRequirement.get(id)?.push(test);
  };
  // What ran: each result carries the tags of its titles.
  const ranByFile = new Map<string, string[]>();
  for (const r of results.tests) {
    const title = join(r.titlePath);
    add(r.titlePath.flatMap(tagsOf), {
      stage: r.stage,
      file: r.file,
      title,
      status: r.status,
      message: r.message,
    });
    ranByFile.set(r.file, [...(ranByFile.get(r.file) ?? []), title]);
  }
  // What is in the sources but did not run (or whose file broke before its tests ran).
  for (const t of staticTests) {
    const pattern = titlePattern(t.titlePath);
    if ((ranByFile.get(t.file) ?? []).some((title) => pattern.test(title))) continue;
    const broken = results.brokenFiles.get(t.file);
    add(t.tags, {
      stage: STAGE_OF_FILE(t.file),
      file: t.file,
      title: join(t.titlePath).replaceAll(ANY, '…'),
      status: broken === undefined ? 'not run' : 'failed',
      ...(broken !== undefined && { message: broken }),
    });
  }
  const reported = requirements.map((r): ReportRequirement => {
    const tests = byRequirement.get(r.id)!;
    const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
    for (const t of tests) counts[t.status] += 1;
    return { ...r, status: statusOf(tests), counts, tests };
  });
  const summary = Object.fromEntries(
    RISKS.map((risk) => [risk, Object.fromEntries(REQUIREMENT_STATUSES.map((s) => [s, 0]))]),
  ) as Report['summary'];
  for (const r of reported) summary[r.risk][r.status] += 1;
  const stages = new Set(results.runs.map((r) => r.stage));
  return {
    format: REPORT_FORMAT,
    product: 'Coldtrace',
    version: input.version,
    commit: input.commit,
    uncommittedChanges: input.uncommittedChanges,
    generatedAt: input.generatedAt.toISOString(),
    runs: results.runs,
    missingStages: (['unit', 'browser'] as const).filter((s) => !stages.has(s)),
    summary,
    requirements: reported,
    changes: input.previous === undefined ? null : changesSince(input.previous, reported),
  };
}

/** What changed since a previous report: requirements added or removed, risk, result and tests. */
export function changesSince(previous: Report, now: ReportRequirement[]): Changes {
  const before = new Map(previous.requirements.map((r) => [r.id, r]));
  const after = new Map(now.map((r) => [r.id, r]));
  const key = (t: ReportTest) => `${t.file} ${t.title}`;
  const changes: Changes = {
    previous: {
      version: previous.version,
      commit: previous.commit,
      generatedAt: previous.generatedAt,
    },
    added: now.filter((r) => !before.has(r.id)).map((r) => r.id),
    removed: previous.requirements.filter((r) => !after.has(r.id)).map((r) => r.id),
    riskChanged: [],
    statusChanged: [],
    testsChanged: [],
  };
  for (const r of now) {
    const old = before.get(r.id);
    if (old === undefined) continue;
    if (old.risk !== r.risk) changes.riskChanged.push({ id: r.id, from: old.risk, to: r.risk });
    if (old.status !== r.status)
      changes.statusChanged.push({ id: r.id, from: old.status, to: r.status });
    const oldTests = new Set(old.tests.map(key));
    const newTests = new Set(r.tests.map(key));
    const added = [...newTests].filter((k) => !oldTests.has(k)).length;
    const removed = [...oldTests].filter((k) => !newTests.has(k)).length;
    if (added + removed > 0) changes.testsChanged.push({ id: r.id, added, removed });
  }
  return changes;
}

/** High-risk requirements with a failed test: these fail `npm run validation-report`. */
export const failedHighRisk = (report: Report) =>
  report.requirements.filter((r) => r.risk === 'high' && r.status === 'failed');
