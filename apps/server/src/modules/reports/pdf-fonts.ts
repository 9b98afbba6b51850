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
 * A text is set in one font: DejaVu when it has every character, else the
 * font that has more of them (a text mixing CJK with letters only DejaVu has,
 * such as "Łódź 東京", keeps the characters of the other as an empty box).
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

/** How many characters of `text` (line breaks and tabs aside) a font lacks. */
function missing(font: fontkit.Font, text: string): number {
  let count = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20) continue;
    if (!font.hasGlyphForCodePoint(cp)) count += 1;
  }
  return count;
}

/** True when DejaVu Sans cannot print the whole text but Noto Sans JP prints more of it. */
export function needsCjkFont(text: string): boolean {
  // Fast path: Latin-1 and general punctuation are in DejaVu.
  if (/^[\t\n\r\u0020-\u024f\u2000-\u206f\u20ac]*$/.test(text)) return false;
  const inBody = missing(face('body'), text);
  return inBody > 0 && missing(face('cjk'), text) < inBody;
}

/** Sets the font that prints `text` (regular or bold) and answers the document. */
export function useFont(doc: Doc, text: string, bold = false): Doc {
  if (!registered.has(doc)) registerFonts(doc);
  if (needsCjkFont(text)) {
    if (!registeredCjk.has(doc)) {
      doc.registerFont(FILES.cjk.name, bytes('cjk'));
      doc.registerFont(FILES.cjkBold.name, bytes('cjkBold'));
      registeredCjk.add(doc);
    }
    return doc.font(bold ? FILES.cjkBold.name : FILES.cjk.name);
  }
  return doc.font(bold ? FILES.bodyBold.name : FILES.body.name);
}
