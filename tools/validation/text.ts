import type { Changes, Report, ReportRequirement, ReportTest } from './model';
import type { RunInfo, Stage, Status } from './results';
import { STATUSES } from './results';

/** Sentences shared by the HTML and the PDF report. */

export function headline(report: Report): string {
  const commit = report.commit + (report.uncommittedChanges ? ' with uncommitted changes' : '');
  return `Version ${report.version}, commit ${commit}. Generated ${report.generatedAt}.`;
}

export function countsText(counts: Record<Status, number>): string {
  return STATUSES.filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${s}`)
    .join(', ');
}

const STAGE_NAMES: Record<Stage, string> = {
  unit: 'Unit and API tests (Vitest)',
  browser: 'Browser tests (Playwright)',
};

export const missingStageText = (stage: Stage) =>
  `${STAGE_NAMES[stage]}: no results (the stage was not run); their tests show as not run.`;

export function describeRun(run: RunInfo): string {
  const stage = STAGE_NAMES[run.stage];
  return `${stage}, started ${run.startedAt}: ${countsText(run.counts) || 'no tests'} (${run.source}).`;
}

export function describeChanges(changes: Changes | null): string[] {
  if (changes === null) return ['No previous report was given (--previous).'];
  const p = changes.previous;
  const lines = [
    `Compared with version ${p.version}, commit ${p.commit} (generated ${p.generatedAt}).`,
  ];
  if (changes.added.length > 0) lines.push(`New requirements: ${changes.added.join(', ')}.`);
  if (changes.removed.length > 0)
    lines.push(`Requirements no longer in the catalogue: ${changes.removed.join(', ')}.`);
  for (const c of changes.riskChanged) lines.push(`${c.id}: risk ${c.from} → ${c.to}.`);
  for (const c of changes.statusChanged) lines.push(`${c.id}: result ${c.from} → ${c.to}.`);
  for (const c of changes.testsChanged) {
    const parts = [
      c.added > 0 && `${c.added} test(s) added`,
      c.removed > 0 && `${c.removed} removed`,
    ];
    lines.push(`${c.id}: ${parts.filter(Boolean).join(', ')}.`);
  }
  if (lines.length === 1) lines.push('No requirement, risk, result or test changed.');
  return lines;
}

/** A requirement's tests grouped by file, in order, each file with its counts. */
export function filesOf(
  tests: ReportTest[],
): { file: string; tests: ReportTest[]; counts: string }[] {
  const byFile = new Map<string, ReportTest[]>();
  for (const t of tests) byFile.set(t.file, [...(byFile.get(t.file) ?? []), t]);
  return [...byFile].map(([file, inFile]) => {
    const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
    for (const t of inFile) counts[t.status] += 1;
    return { file, tests: inFile, counts: countsText(counts) };
  });
}

/** Requirements with a failed test, and high-risk ones without a passed test (not run, skipped). */
export function attentionOf(report: Report): {
  failed: ReportRequirement[];
  highNotPassed: ReportRequirement[];
} {
  return {
    failed: report.requirements.filter((r) => r.status === 'failed'),
    highNotPassed: report.requirements.filter(
      (r) => r.risk === 'high' && r.status !== 'passed' && r.status !== 'failed',
    ),
  };
}

export const NOTHING_NEEDS_ATTENTION =
  'None: no requirement failed and every high-risk requirement passed.';

export const HIGH_NOT_PASSED =
  'High-risk requirements without a passed test in this run (not run or skipped)';
