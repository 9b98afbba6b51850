import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { RISKS } from './catalogue';
import type { Report, ReportRequirement } from './model';
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

/**
 * The validation report as a PDF (pdfkit, DejaVu Sans Condensed as the server's
 * reports use): the summary table first, then the runs, what needs attention
 * and the changes, then each requirement with its tests grouped by file. Failed
 * and skipped tests are named; the others are counted per file (the HTML and
 * JSON reports name them all).
 */

type Doc = PDFKit.PDFDocument;
const require = createRequire(import.meta.url);
const FONT = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'));
const BOLD = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'));

const MARGIN = 50;
const WIDTH = 595.28 - 2 * MARGIN;
const BOTTOM = 841.89 - MARGIN - 14;
const COLOURS: Record<string, string> = {
  passed: '#1b7f3b',
  failed: '#b3261e',
  skipped: '#8a6d00',
  'not run': '#555555',
  'no test': '#555555',
};
/** Tests not passed named per requirement in the PDF before "and n more". */
const NAMED = 12;

function ensure(doc: Doc, height: number): void {
  if (doc.y + height > BOTTOM) doc.addPage();
}

function heading(doc: Doc, text: string): void {
  ensure(doc, 40);
  doc.moveDown(0.6).font('bold').fontSize(12).fillColor('black').text(text, MARGIN, doc.y);
  doc.moveDown(0.2).font('body').fontSize(9);
}

function summaryTable(doc: Doc, report: Report): void {
  const columns = ['Risk', ...REQUIREMENT_STATUSES, 'total'];
  const w = WIDTH / columns.length;
  const rowH = 16;
  const row = (cells: string[], y: number, bold: boolean, fill?: string) => {
    if (fill) doc.rect(MARGIN, y, WIDTH, rowH).fill(fill);
    cells.forEach((cell, i) => {
      doc
        .font(bold || i === 0 ? 'bold' : 'body')
        .fontSize(9)
        .fillColor(
          i > 0 && i <= REQUIREMENT_STATUSES.length && cell !== ''
            ? COLOURS[columns[i]!]!
            : 'black',
        )
        .text(cell, MARGIN + i * w + 4, y + 4, {
          width: w - 8,
          align: i === 0 ? 'left' : 'right',
          lineBreak: false,
        });
    });
    doc.rect(MARGIN, y, WIDTH, rowH).lineWidth(0.4).strokeColor('#999999').stroke();
  };
  ensure(doc, rowH * 5 + 10);
  let y = doc.y + 4;
  row(columns, y, true, '#eeeeee');
  const totals = REQUIREMENT_STATUSES.map(() => 0);
  for (const risk of RISKS) {
    y += rowH;
    const counts = REQUIREMENT_STATUSES.map((s) => report.summary[risk][s]);
    counts.forEach((n, i) => (totals[i]! += n));
    row(
      [risk, ...counts.map((n) => (n ? String(n) : '')), String(counts.reduce((a, b) => a + b, 0))],
      y,
      false,
    );
  }
  y += rowH;
  row(
    ['all', ...totals.map(String), String(totals.reduce((a, b) => a + b, 0))],
    y,
    true,
    '#f6f6f6',
  );
  doc.x = MARGIN;
  doc.y = y + rowH + 6;
}

function bullet(doc: Doc, text: string, colour = 'black'): void {
  ensure(doc, 12);
  doc
    .font('body')
    .fontSize(9)
    .fillColor(colour)
    .text(`•  ${text}`, MARGIN + 6, doc.y, { width: WIDTH - 6 });
}

function requirement(doc: Doc, r: ReportRequirement): void {
  ensure(doc, 64);
  doc.moveDown(0.5);
  const y = doc.y;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + WIDTH, y)
    .lineWidth(0.4)
    .strokeColor('#cccccc')
    .stroke();
  doc.y = y + 4;
  doc
    .font('bold')
    .fontSize(10)
    .fillColor('black')
    .text(`${r.id}   `, MARGIN, doc.y, { continued: true });
  doc.fillColor(COLOURS[r.status]!).text(r.status, { continued: true });
  doc.fillColor(r.risk === 'high' ? '#b3261e' : '#333333').text(`   ${r.risk} risk`);
  doc.font('body').fontSize(9).fillColor('black').text(r.title, MARGIN, doc.y, { width: WIDTH });
  doc
    .fontSize(8)
    .fillColor('#444444')
    .text(`Why ${r.risk}: ${r.reason}  Source: ${r.source}`, { width: WIDTH });
  if (r.tests.length === 0) {
    doc.fillColor('#555555').text('No test is tagged with this requirement.', { width: WIDTH });
    return;
  }
  let named = 0;
  let unnamed = 0;
  for (const { file, tests, counts } of filesOf(r.tests)) {
    ensure(doc, 11);
    doc
      .font('body')
      .fontSize(8)
      .fillColor('black')
      .text(`${file} — ${counts}`, MARGIN + 8, doc.y, { width: WIDTH - 8 });
    for (const t of tests.filter((x) => x.status === 'failed' || x.status === 'skipped')) {
      if (named >= NAMED) {
        unnamed += 1;
        continue;
      }
      named += 1;
      ensure(doc, 10);
      const line = `${t.status}: ${t.title}${t.message ? ` — ${t.message}` : ''}`;
      doc
        .fontSize(7.5)
        .fillColor(COLOURS[t.status]!)
        .text(line, MARGIN + 18, doc.y, { width: WIDTH - 18 });
    }
  }
  if (unnamed > 0) {
    doc
      .fontSize(7.5)
      .fillColor('#555555')
      .text(
        `… and ${unnamed} more failed or skipped (named in the HTML and JSON reports).`,
        MARGIN + 18,
        doc.y,
      );
  }
}

function footers(doc: Doc, report: Report): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    const y = 841.89 - MARGIN + 10;
    const left = `${report.product} ${report.version} validation report, commit ${report.commit.slice(0, 12)}`;
    doc.font('body').fontSize(7).fillColor('#666666');
    doc.text(left, MARGIN, y, { width: WIDTH - 80, lineBreak: false });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, MARGIN + WIDTH - 80, y, {
      width: 80,
      align: 'right',
      lineBreak: false,
    });
  }
}

export async function renderPdf(report: Report): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: `${report.product} ${report.version} validation report`, Creator: 'Coldtrace' },
  });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(18).fillColor('black').text(`${report.product} validation report`);
  doc.font('body').fontSize(9).fillColor('#333333').text(headline(report));
  heading(doc, 'Summary: requirements by risk and result');
  summaryTable(doc, report);
  heading(doc, 'Test runs');
  for (const run of report.runs) bullet(doc, describeRun(run));
  for (const stage of report.missingStages) {
    bullet(doc, missingStageText(stage), '#8a6d00');
  }
  heading(doc, 'Needing attention');
  const { failed, highNotPassed } = attentionOf(report);
  if (failed.length + highNotPassed.length === 0) bullet(doc, NOTHING_NEEDS_ATTENTION);
  for (const r of failed)
    bullet(doc, `${r.id} (${r.risk} risk) failed: ${r.title}`, COLOURS.failed);
  if (highNotPassed.length > 0) {
    bullet(doc, `${HIGH_NOT_PASSED}: ${highNotPassed.map((r) => r.id).join(', ')}.`, '#8a6d00');
  }
  heading(doc, 'Changes since the previous report');
  for (const line of describeChanges(report.changes)) bullet(doc, line);
  heading(doc, 'Requirements');
  for (const r of report.requirements) requirement(doc, r);

  footers(doc, report);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
