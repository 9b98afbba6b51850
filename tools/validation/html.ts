import type { Risk } from './catalogue';
import { RISKS } from './catalogue';
import type { Report, ReportRequirement, ReportTest } from './model';
import { REQUIREMENT_STATUSES } from './model';
import {
  HIGH_NOT_PASSED,
  NOTHING_NEEDS_ATTENTION,
  attentionOf,
  describeChanges,
  describeRun,
  filesOf,
  headline,
  missingStageText,
} from './text';

/** The validation report as one self-contained HTML page (docs/validation.md). */

const esc = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const chip = (status: string) =>
  `<span class="s ${status.replace(' ', '-')}">${esc(status)}</span>`;

function summaryTable(report: Report): string {
  const head = REQUIREMENT_STATUSES.map((s) => `<th>${esc(s)}</th>`).join('');
  const row = (label: string, counts: Record<string, number>) =>
    `<tr><th>${esc(label)}</th>${REQUIREMENT_STATUSES.map((s) => `<td>${counts[s] || ''}</td>`).join('')}<td>${Object.values(counts).reduce((a, b) => a + b, 0)}</td></tr>`;
  const total = Object.fromEntries(
    REQUIREMENT_STATUSES.map((s) => [s, RISKS.reduce((n, risk) => n + report.summary[risk][s], 0)]),
  );
  return `<table class="summary"><thead><tr><th>Risk</th>${head}<th>total</th></tr></thead><tbody>
${RISKS.map((risk: Risk) => row(risk, report.summary[risk])).join('\n')}
${row('all', total)}</tbody></table>`;
}

function testList(tests: ReportTest[]): string {
  return filesOf(tests)
    .map(({ file, tests: inFile, counts }) => {
      const items = inFile
        .map(
          (t) =>
            `<li>${chip(t.status)} ${esc(t.title)}${t.message ? `<div class="msg">${esc(t.message)}</div>` : ''}</li>`,
        )
        .join('');
      const open = inFile.some((t) => t.status !== 'passed') ? ' open' : '';
      return `<details${open}><summary><code>${esc(file)}</code> — ${esc(counts)}</summary><ul>${items}</ul></details>`;
    })
    .join('\n');
}

function requirementSection(r: ReportRequirement): string {
  return `<section id="${esc(r.id)}" class="req">
<h3>${esc(r.id)} ${chip(r.status)} <span class="risk ${r.risk}">${r.risk} risk</span></h3>
<p class="title">${esc(r.title)}</p>
<p class="why"><b>Why ${r.risk}:</b> ${esc(r.reason)} <span class="src">Source: ${esc(r.source)}</span></p>
${r.tests.length === 0 ? '<p class="none">No test is tagged with this requirement.</p>' : testList(r.tests)}
</section>`;
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1a1a1a}
h1{margin-bottom:.2rem}.meta{color:#444}table{border-collapse:collapse;margin:.5rem 0 1rem}
th,td{border:1px solid #bbb;padding:.25rem .6rem;text-align:right}th:first-child{text-align:left}
thead th{background:#eee}.s{display:inline-block;padding:0 .4rem;border-radius:.3rem;font-size:12px;color:#fff}
.passed{background:#1b7f3b}.failed{background:#b3261e}.skipped{background:#8a6d00}.not-run,.no-test{background:#666}
.risk{font-size:12px;border:1px solid #999;border-radius:.3rem;padding:0 .4rem}.risk.high{border-color:#b3261e;color:#b3261e}
.req{border-top:1px solid #ddd;padding:.4rem 0}.req h3{margin:.3rem 0}.title{margin:.2rem 0;font-weight:600}
.why{margin:.2rem 0;color:#333}.src{color:#666}details{margin:.2rem 0 .2rem 1rem}ul{margin:.2rem 0;padding-left:1.2rem}
li{margin:.1rem 0}.msg{color:#b3261e;font-family:monospace;font-size:12px}.none{color:#666;font-style:italic}
code{font-size:13px}`;

export function renderHtml(report: Report): string {
  const { failed, highNotPassed } = attentionOf(report);
  const link = (r: ReportRequirement) => `<a href="#${esc(r.id)}">${esc(r.id)}</a>`;
  const attention = [
    ...failed.map((r) => `<li>${link(r)} ${chip('failed')} ${r.risk} risk: ${esc(r.title)}</li>`),
    ...(highNotPassed.length > 0
      ? [`<li>${esc(HIGH_NOT_PASSED)}: ${highNotPassed.map(link).join(', ')}.</li>`]
      : []),
  ];
  const changes = describeChanges(report.changes);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(report.product)} ${esc(report.version)} validation report</title>
<style>${CSS}</style></head><body>
<h1>${esc(report.product)} validation report</h1>
<p class="meta">${esc(headline(report))}</p>
<h2>Summary: requirements by risk and result</h2>
${summaryTable(report)}
<h2>Test runs</h2>
<ul>${report.runs.map((run) => `<li>${esc(describeRun(run))}</li>`).join('')}
${report.missingStages.map((s) => `<li>${esc(missingStageText(s))}</li>`).join('')}</ul>
<h2>Needing attention</h2>
${attention.length === 0 ? `<p>${esc(NOTHING_NEEDS_ATTENTION)}</p>` : `<ul>${attention.join('')}</ul>`}
<h2>Changes since the previous report</h2>
<ul>${changes.map((line) => `<li>${esc(line)}</li>`).join('')}</ul>
<h2>Requirements</h2>
${report.requirements.map(requirementSection).join('\n')}
</body></html>
`;
}
