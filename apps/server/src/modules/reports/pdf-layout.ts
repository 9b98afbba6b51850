import PDFDocument from 'pdfkit';
import { MISSING_VALUE } from '@coldtrace/domain';
import { registerFonts, textHeight, useFont, writeText } from './pdf-fonts';
import { summaryText, type SummaryLine } from './report-model';

/**
 * Shared PDF layout (reports and calibration certificates): A4 portrait,
 * Unicode fonts embedded as subsets (pdf-fonts.ts), sections with a rule, label/value grids, tables that
 * break across pages with their heading repeated, and a footer on every page.
 */

export const MARGIN = 40;
export const PAGE = { width: 595.28, height: 841.89 };
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
export const BOTTOM = PAGE.height - MARGIN - 18;
export const INK = '#1f2933';
export const MUTED = '#616e7c';
export const RULE = '#cbd2d9';
export const ALARM = '#c62828';
export const SERIES = '#1565c0';

export type Doc = PDFKit.PDFDocument;

/**
 * Text as the PDF prints it: control characters dropped (line breaks and tabs
 * kept), a lone surrogate (half of a character) as U+FFFD; every script stays.
 */
export function printable(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
  );
}

export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > BOTTOM) doc.addPage();
}

/**
 * A block of text across the content width: moved to a new page first when it
 * would cross BOTTOM (the footer's top is below it), so no text meets a footer.
 */
export function paragraph(doc: Doc, text: string, options: { bold?: boolean } = {}): void {
  const shown = printable(text);
  const opts = { width: CONTENT_WIDTH, bold: options.bold ?? false };
  ensureSpace(doc, textHeight(doc, shown, opts));
  writeText(doc, shown, { x: MARGIN, y: doc.y, ...opts });
}

export function section(doc: Doc, title: string): void {
  ensureSpace(doc, 90);
  doc.moveDown(0.6);
  const y = doc.y;
  doc.fontSize(12).fillColor(INK);
  writeText(doc, printable(title), { x: MARGIN, y, bold: true });
  doc
    .moveTo(MARGIN, doc.y + 1)
    .lineTo(MARGIN + CONTENT_WIDTH, doc.y + 1)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();
  doc.y += 6;
}

/**
 * Label / value pairs in `columns` columns, row by row; the label takes
 * `labelShare` of each column (a time with its offset needs the room).
 */
export function keyValueGrid(
  doc: Doc,
  lines: SummaryLine[],
  zone: string,
  columns: number,
  labelShare = 0.48,
): void {
  const gap = 14;
  const colWidth = (CONTENT_WIDTH - gap * (columns - 1)) / columns;
  const labelWidth = colWidth * labelShare;
  const valueWidth = colWidth - labelWidth - 4;
  doc.fontSize(8.5);
  for (let start = 0; start < lines.length; start += columns) {
    const row = lines.slice(start, start + columns);
    const texts = row.map((l) =>
      printable(summaryText(l.value, zone, l.decimals) || MISSING_VALUE),
    );
    const height = Math.max(
      ...row.map((l, i) =>
        Math.max(
          textHeight(doc, printable(l.label), { width: labelWidth }),
          textHeight(doc, texts[i]!, { width: valueWidth, bold: true }),
        ),
      ),
    );
    ensureSpace(doc, height + 3);
    const y = doc.y;
    row.forEach((line, i) => {
      const x = MARGIN + i * (colWidth + gap);
      doc.fillColor(MUTED);
      writeText(doc, printable(line.label), { x, y, width: labelWidth });
      doc.fillColor(INK);
      writeText(doc, texts[i]!, { x: x + labelWidth + 4, y, width: valueWidth, bold: true });
    });
    doc.y = y + height + 3;
  }
  doc.x = MARGIN;
}

// ---------------------------------------------------------------- chart

export interface Column {
  title: string;
  width: number;
}

export function table(doc: Doc, columns: Column[], rows: string[][], empty: string): void {
  doc.fontSize(8);
  if (rows.length === 0) {
    doc.fillColor(MUTED);
    paragraph(doc, empty);
    return;
  }
  const total = columns.reduce((s, c) => s + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * CONTENT_WIDTH);
  const pad = 3;
  const drawHead = () => {
    const y = doc.y;
    const h = Math.max(
      ...columns.map((c, i) =>
        textHeight(doc, c.title, { width: widths[i]! - 2 * pad, bold: true }),
      ),
    );
    doc.rect(MARGIN, y, CONTENT_WIDTH, h + 2 * pad).fill('#eef2f6');
    let x = MARGIN;
    columns.forEach((c, i) => {
      doc.fillColor(INK);
      writeText(doc, c.title, { x: x + pad, y: y + pad, width: widths[i]! - 2 * pad, bold: true });
      x += widths[i]!;
    });
    doc.y = y + h + 2 * pad;
  };
  ensureSpace(doc, 40);
  drawHead();
  for (const row of rows) {
    const cells = row.map(printable);
    const h = Math.max(
      ...cells.map((text, i) => textHeight(doc, text, { width: widths[i]! - 2 * pad })),
    );
    if (doc.y + h + 2 * pad > BOTTOM) {
      doc.addPage();
      drawHead();
    }
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((text, i) => {
      doc.fillColor(INK);
      writeText(doc, text, { x: x + pad, y: y + pad, width: widths[i]! - 2 * pad });
      x += widths[i]!;
    });
    doc.y = y + h + 2 * pad;
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + CONTENT_WIDTH, doc.y)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
  }
  doc.x = MARGIN;
}

/** A new A4 document whose pages are kept until `finish` (for "Page n of m"). */
export function createDocument(info: PDFKit.DocumentInfo): Doc {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { ...info, Creator: 'Coldtrace' },
  });
  registerFonts(doc);
  return useFont(doc, '');
}

/** Writes `footer` and "Page n of m" on every page, ends the document and answers its bytes. */
export async function finish(doc: Doc, footer: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  drawFooters(doc, footer);
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

function drawFooters(doc: Doc, footer: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin: lift the margin so pdfkit adds no page for it.
    doc.page.margins.bottom = 0;
    const y = PAGE.height - MARGIN - 6;
    doc.fontSize(7).fillColor(MUTED);
    writeText(doc, printable(footer), {
      x: MARGIN,
      y,
      width: CONTENT_WIDTH - 80,
      lineBreak: false,
      height: 10,
    });
    useFont(doc, 'Page');
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, MARGIN + CONTENT_WIDTH - 80, y, {
      width: 80,
      align: 'right',
      lineBreak: false,
      height: 10,
    });
  }
}
