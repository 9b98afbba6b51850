import { execFileSync } from 'node:child_process';
import { parseZonedDateTime } from '@coldtrace/domain';

/**
 * Reading a report's times back as a reader would (issue 35 item 2), for the
 * tests of the time axis and of the reports across the 2026 changes of
 * summer time: the words of a PDF with their positions, and a chart's tick
 * labels turned back into instants.
 */

export interface Word {
  page: number;
  xMin: number;
  xMax: number;
  /** The top of the word and its bottom. */
  y: number;
  yMax: number;
  text: string;
}

/** The words of a PDF with their positions in points (pdftotext -bbox). */
export function pdfWords(pdf: Buffer): Word[] {
  const xhtml = execFileSync('pdftotext', ['-bbox', '-', '-'], { input: pdf }).toString('utf8');
  const unescape = (t: string) =>
    t
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const words: Word[] = [];
  xhtml.split('<page ').forEach((page, index) => {
    for (const m of page.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    )) {
      words.push({
        page: index,
        xMin: Number(m[1]),
        y: Number(m[2]),
        xMax: Number(m[3]),
        yMax: Number(m[4]),
        text: unescape(m[5]!),
      });
    }
  });
  return words;
}

/** The PDF's verdict section in its text: from its title to the chart's section that follows it. */
export function verdictText(text: string): string {
  const start = text.indexOf('Verdict');
  return text.slice(start, text.indexOf('Temperature (°', start));
}

const CLOCK = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
const OFFSET = /^UTC[+-]\d{2}:\d{2}$/;
const DATE = /^\d{2}\/\d{2}\/\d{4}$/;

/**
 * The instants of a chart's tick labels, in order: each label is its words
 * (`02:00`, `UTC+01:00`, `10/25/2026`; a label of a day's step has no clock),
 * a label without a date or an offset has those of the label before, as a
 * reader carries them along the axis. Throws when the first label lacks
 * either, or a label has a word that is none of these.
 */
export function tickInstants(labels: readonly (readonly string[])[]): number[] {
  let date: string | null = null;
  let offset: string | null = null;
  return labels.map((words) => {
    let clock = '00:00:00';
    for (const word of words) {
      const c = CLOCK.exec(word);
      if (c) clock = `${c[1]}:${c[2]}:${c[3] ?? '00'}`;
      else if (OFFSET.test(word)) offset = word;
      else if (DATE.test(word)) date = word;
      else throw new Error(`not a word of a time label: ${word}`);
    }
    if (date === null || offset === null) throw new Error(`label without date or offset: ${words}`);
    const instant = parseZonedDateTime(`${date}, ${clock} ${offset}`);
    if (instant === null) throw new Error(`unreadable label: ${words}`);
    return instant.getTime();
  });
}

/** Every en-US date-time in a text (`10/25/2026, 02:30:00`) with what follows it. */
export function printedDateTimes(text: string): { time: string; zoned: boolean }[] {
  return [...text.matchAll(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}( UTC[+-]\d{2}:\d{2})?/g)].map(
    (m) => ({ time: m[0], zoned: m[1] !== undefined }),
  );
}

const ORACLES = new Map<string, Intl.DateTimeFormat>();

/** The parts of an instant's local time in `zone`, written with Intl alone (not the report code). */
function localParts(at: string | Date | number, zone: string) {
  let oracle = ORACLES.get(zone);
  if (oracle === undefined) {
    oracle = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    ORACLES.set(zone, oracle);
  }
  const p = Object.fromEntries(
    oracle.formatToParts(new Date(at)).map((part) => [part.type, part.value]),
  ) as Record<Intl.DateTimeFormatPartTypes, string>;
  // `GMT-04:00`, or `GMT` for UTC itself.
  const offset = p.timeZoneName === 'GMT' ? '+00:00' : p.timeZoneName.slice(3);
  return { ...p, offset };
}

/** `10/25/2026, 02:30:00 UTC+02:00`: a time as the PDF and the XLSX's text cells print it. */
export function zonedText(at: string | Date | number, zone: string): string {
  const p = localParts(at, zone);
  return `${p.month}/${p.day}/${p.year}, ${p.hour}:${p.minute}:${p.second} UTC${p.offset}`;
}

/** `2026-10-25T02:30:00+02:00`: a time as the CSV writes it. */
export function zonedIso(at: string | Date | number, zone: string): string {
  const p = localParts(at, zone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${p.offset}`;
}
