import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * The PDF fonts (reports and calibration certificates): Unicode TrueType
 * fonts embedded by pdfkit as subsets (only the glyphs a document uses), so
 * names in any script print, where the built-in Helvetica knows Latin-1 only.
 *
 * - DejaVu Sans Condensed (package dejavu-fonts-ttf; Bitstream Vera licence, free to
 *   redistribute and embed): Latin, Greek, Cyrillic, Armenian, Georgian,
 *   Hebrew, Arabic and symbols; the body font.
 * - Noto Sans JP (package @expo-google-fonts/noto-sans-jp; SIL Open Font
 *   Licence 1.1): Chinese characters, kana and Hangul-free CJK, with its own
 *   Latin, Greek and Cyrillic; used for a text that DejaVu cannot print whole.
 *
 * A text is cut into runs (textRuns): DejaVu for what it has, Noto Sans JP
 * for the rest, so "Łódź 東京" prints whole; a character neither has prints
 * as an empty box.
 * The files are read once per process; pdfkit parses them per document.
 */

const require = createRequire(import.meta.url);

interface FontFile {
  name: string;
  file: string;
}

const FILES = {
  body: { name: 'DejaVuSansCondensed', file: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf' },
  bodyBold: {
    name: 'DejaVuSansCondensed-Bold',
    file: 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf',
  },
  cjk: {
    name: 'NotoSansJP',
    file: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  },
  cjkBold: {
    name: 'NotoSansJP-Bold',
    file: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
  },
} satisfies Record<string, FontFile>;

type FontKey = keyof typeof FILES;

const buffers = new Map<FontKey, Buffer>();
const faces = new Map<FontKey, fontkit.Font>();

function bytes(key: FontKey): Buffer {
  let b = buffers.get(key);
  if (b === undefined) {
    b = readFileSync(require.resolve(FILES[key].file));
    buffers.set(key, b);
  }
  return b;
}

function face(key: 'body' | 'cjk'): fontkit.Font {
  let f = faces.get(key);
  if (f === undefined) {
    f = fontkit.create(bytes(key)) as fontkit.Font;
    faces.set(key, f);
  }
  return f;
}

type Doc = PDFKit.PDFDocument;
const registered = new WeakSet<Doc>();
const registeredCjk = new WeakSet<Doc>();

/** Registers the body fonts with a new document (the CJK fonts only when a text needs them). */
export function registerFonts(doc: Doc): void {
  doc.registerFont(FILES.body.name, bytes('body'));
  doc.registerFont(FILES.bodyBold.name, bytes('bodyBold'));
  registered.add(doc);
}

/** A piece of text set in one font. */
export interface TextRun {
  text: string;
  cjk: boolean;
}

/**
 * `text` cut into runs of one font each: a letter DejaVu has is set in
 * DejaVu, one only Noto Sans JP has in Noto Sans JP; spaces, punctuation and
 * characters neither font has stay in the run they are in.
 */
export function textRuns(text: string): TextRun[] {
  // Fast path: Latin, Latin extended and general punctuation are in DejaVu.
  if (/^[\t\n\r\u0020-\u024f\u2000-\u206f\u20ac]*$/.test(text)) return [{ text, cjk: false }];
  const body = face('body');
  const cjk = face('cjk');
  const runs: TextRun[] = [];
  for (const ch of text) {
    const current = runs[runs.length - 1];
    const cp = ch.codePointAt(0)!;
    let inCjk = current?.cjk ?? false;
    if (cp >= 0x20) {
      const hasBody = body.hasGlyphForCodePoint(cp);
      const hasCjk = cjk.hasGlyphForCodePoint(cp);
      if (hasBody !== hasCjk) inCjk = hasCjk;
      else if (hasBody && !/[\s\p{P}]/u.test(ch)) inCjk = false;
    }
    if (current !== undefined && current.cjk === inCjk) current.text += ch;
    else runs.push({ text: ch, cjk: inCjk });
  }
  return runs.length > 0 ? runs : [{ text, cjk: false }];
}

function setFont(doc: Doc, cjk: boolean, bold: boolean): Doc {
  if (!registered.has(doc)) registerFonts(doc);
  if (cjk) {
    if (!registeredCjk.has(doc)) {
      doc.registerFont(FILES.cjk.name, bytes('cjk'));
      doc.registerFont(FILES.cjkBold.name, bytes('cjkBold'));
      registeredCjk.add(doc);
    }
    return doc.font(bold ? FILES.cjkBold.name : FILES.cjk.name);
  }
  return doc.font(bold ? FILES.bodyBold.name : FILES.body.name);
}

/** Sets the font of `text` (regular or bold; the first run's font for mixed text) and answers the document. */
export function useFont(doc: Doc, text: string, bold = false): Doc {
  const runs = textRuns(text);
  return setFont(doc, runs[0]!.cjk, bold);
}

/**
 * Writes `text` at (x, y), or where the last text ended when x is left out,
 * each run in its font, wrapped as one paragraph (pdfkit's continued text).
 */
export function writeText(
  doc: Doc,
  text: string,
  options: PDFKit.Mixins.TextOptions & { x?: number; y?: number; bold?: boolean },
): Doc {
  const { x, y, bold = false, ...rest } = options;
  const runs = textRuns(text);
  runs.forEach((run, i) => {
    setFont(doc, run.cjk, bold);
    const continued = i < runs.length - 1;
    if (i === 0 && x !== undefined) doc.text(run.text, x, y, { ...rest, continued });
    else if (i === 0) doc.text(run.text, { ...rest, continued });
    else doc.text(run.text, { continued });
  });
  return doc;
}

/** The height `text` takes at `width` (mixed text: the larger of its height in either font). */
export function textHeight(
  doc: Doc,
  text: string,
  options: PDFKit.Mixins.TextOptions & { bold?: boolean },
): number {
  const { bold = false, ...rest } = options;
  const runs = textRuns(text);
  if (runs.length === 1) return setFont(doc, runs[0]!.cjk, bold).heightOfString(text, rest);
  return Math.max(
    setFont(doc, false, bold).heightOfString(text, rest),
    setFont(doc, true, bold).heightOfString(text, rest),
  );
}
