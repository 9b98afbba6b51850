import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { shown, toleranceText, type OqReport, type ReportSignature } from './report';

/**
 * The OQ report as a PDF (pdfkit, as the server's reports): A4 landscape, the run's
 * facts, the requirements with their verdict, then every check with its expected
 * and actual value; a footer with the page and the JSON's SHA-256 on every page.
 */

type Doc = PDFKit.PDFDocument;

const MARGIN = 40;
const WIDTH = 841.89;
const HEIGHT = 595.28;
const CONTENT = WIDTH - 2 * MARGIN;
const BOTTOM = HEIGHT - MARGIN - 16;
const INK = '#1f2933';
const MUTED = '#616e7c';
const RULE = '#cbd2d9';
const PASS = '#1b5e20';
const FAIL = '#b71c1c';

/**
 * DejaVu Sans Condensed, as the server's reports use it (package dejavu-fonts-ttf, a
 * dependency of apps/server): every name and text prints as written (Δ, −, ü, ...).
 */
const require = createRequire(import.meta.url);
const FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'),
};
const REGULAR = 'OqRegular';
const BOLD = 'OqBold';

/** Control characters dropped (line breaks kept): a value read back is printed as text. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- dropping control characters is the point
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
}

interface Column {
  title: string;
  width: number;
  bold?: boolean;
}

function rowHeight(doc: Doc, cells: string[], columns: Column[], size: number): number {
  doc.fontSize(size);
  return (
    Math.max(
      ...cells.map((text, i) => {
        doc.font(columns[i]!.bold ? BOLD : REGULAR);
        return doc.heightOfString(text, { width: columns[i]!.width - 6 });
      }),
    ) + 5
  );
}

function drawRow(
  doc: Doc,
  cells: string[],
  columns: Column[],
  options: { header?: boolean; colors?: (string | undefined)[] },
): void {
  const size = options.header ? 8.5 : 8;
  const height = rowHeight(doc, cells, columns, size);
  if (doc.y + height > BOTTOM) {
    doc.addPage();
    if (!options.header)
      drawRow(
        doc,
        columns.map((c) => c.title),
        columns,
        { header: true },
      );
  }
  const y = doc.y;
  if (options.header) doc.rect(MARGIN, y, CONTENT, height).fill('#eef1f4');
  let x = MARGIN;
  cells.forEach((text, i) => {
    const column = columns[i]!;
    doc
      .font(options.header || column.bold ? BOLD : REGULAR)
      .fontSize(size)
      .fillColor(options.colors?.[i] ?? INK)
      .text(text, x + 3, y + 3, { width: column.width - 6 });
    x += column.width;
  });
  doc
    .moveTo(MARGIN, y + height)
    .lineTo(MARGIN + CONTENT, y + height)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.x = MARGIN;
  doc.y = y + height;
}

function table(
  doc: Doc,
  columns: Column[],
  rows: { cells: string[]; colors?: (string | undefined)[] }[],
): void {
  drawRow(
    doc,
    columns.map((c) => c.title),
    columns,
    { header: true },
  );
  for (const row of rows) drawRow(doc, row.cells.map(printable), columns, { colors: row.colors });
}

function heading(doc: Doc, text: string): void {
  if (doc.y + 60 > BOTTOM) doc.addPage();
  doc.moveDown(0.8).font(BOLD).fontSize(12).fillColor(INK).text(text, MARGIN, doc.y);
  doc.moveDown(0.3);
}

export function reportPdf(report: OqReport, signature: ReportSignature): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    font: FONTS.regular,
    info: {
      Title: `Coldtrace OQ report ${report.started_at}`,
      Author: printable(report.operator.label),
    },
  });
  doc.registerFont(REGULAR, FONTS.regular);
  doc.registerFont(BOLD, FONTS.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) =>
    doc.on('end', () => resolve(Buffer.concat(chunks))),
  );

  doc
    .font(BOLD)
    .fontSize(17)
    .fillColor(INK)
    .text('Coldtrace operational qualification (OQ) report', MARGIN, MARGIN);
  const passed = report.result === 'PASS';
  doc
    .moveDown(0.3)
    .fontSize(13)
    .fillColor(passed ? PASS : FAIL)
    .text(
      `${report.result}: ${report.totals.passed} of ${report.totals.checks} checks passed, ${report.requirements.filter((r) => r.result === 'PASS').length} of ${report.totals.requirements} requirements`,
    );
  doc.moveDown(0.6);
  const facts: [string, string][] = [
    ['Instance', report.instance.base_url],
    [
      'Instance version',
      `API ${report.instance.api_version}; evidence key ${report.instance.evidence_key_id ?? 'none'}`,
    ],
    [
      'Suite',
      `Coldtrace OQ ${report.suite.version}; requirement ids: ${report.suite.requirement_ids}`,
    ],
    ['Operator', `${report.operator.label} (signed in as ${report.operator.username})`],
    ['Run (UTC)', `${report.started_at} to ${report.finished_at}`],
    [
      'Test organization',
      `${report.organization.name}, id ${report.organization.id} (left in place with its trail)`,
    ],
    [
      'Records',
      Object.entries(report.records)
        .map(([k, v]) => `shipment ${k}: record ${v}`)
        .join('; '),
    ],
    ['JSON SHA-256', signature.sha256],
    ['Signed with', `Ed25519 key ${signature.key_fingerprint} (${signature.key_source})`],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font(BOLD).fontSize(9).fillColor(MUTED).text(label, MARGIN, y, { width: 110 });
    doc
      .font(REGULAR)
      .fontSize(9)
      .fillColor(INK)
      .text(printable(value), MARGIN + 115, y, { width: CONTENT - 115 });
    doc.moveDown(0.15);
  }

  heading(doc, 'Requirements');
  table(
    doc,
    [
      { title: 'Requirement', width: 150, bold: true },
      { title: 'Title', width: 362 },
      { title: 'Source', width: 130 },
      { title: 'Risk', width: 40 },
      { title: 'Checks', width: 40 },
      { title: 'Result', width: 40 },
    ],
    report.requirements.map((r) => ({
      cells: [r.id, r.title, r.source, r.risk, String(r.checks.length), r.result],
      colors: [
        undefined,
        undefined,
        MUTED,
        undefined,
        undefined,
        r.result === 'PASS' ? PASS : FAIL,
      ],
    })),
  );

  heading(doc, 'Checks');
  table(
    doc,
    [
      { title: 'Check', width: 140 },
      { title: 'What', width: 202 },
      { title: 'Expected', width: 102 },
      { title: 'Actual', width: 102 },
      { title: 'Tolerance', width: 56 },
      { title: 'Requirements', width: 120 },
      { title: 'Result', width: 40 },
    ],
    report.checks.map((c) => ({
      cells: [
        c.id,
        c.title,
        shown(c.expected, c.unit),
        shown(c.actual, c.unit),
        toleranceText(c),
        c.requirements.join(', '),
        c.pass ? 'PASS' : 'FAIL',
      ],
      colors: [
        MUTED,
        undefined,
        undefined,
        c.pass ? undefined : FAIL,
        MUTED,
        MUTED,
        c.pass ? PASS : FAIL,
      ],
    })),
  );

  doc
    .moveDown(1)
    .font(REGULAR)
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(
      'The record of this run is oq-report.json; this PDF and oq-report.html show the same content. ' +
        'oq-report.sig.json holds its Ed25519 signature: check it with  npm run oq -- --verify oq-report.json  ' +
        '(add --key-fingerprint to pin the key). Expected values are worked out by hand in tools/oq/src/fixtures.ts.',
      MARGIN,
      doc.y,
      { width: CONTENT },
    );

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: without this, pdfkit would start a new page for the footer.
    doc.page.margins.bottom = 0;
    doc
      .font(REGULAR)
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(
        `Coldtrace OQ report  ·  ${report.instance.base_url}  ·  JSON SHA-256 ${signature.sha256}  ·  page ${i + 1} of ${range.count}`,
        MARGIN,
        HEIGHT - MARGIN,
        { width: CONTENT, lineBreak: false },
      );
  }
  doc.end();
  return done;
}
