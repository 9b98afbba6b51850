import { execFileSync } from 'node:child_process';
import {
  ALARM_CLOSE_CAUSE_LABELS,
  ALARM_STATE_LABELS,
  SIGNATURE_MEANING_LABELS,
  ZAuditEvent,
  ZExcursionAlarm,
  ZFileReference,
  ZRecord,
  type TExcursionAlarm,
} from '@coldtrace/contract';
import { auditActionLabel } from '@coldtrace/domain';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
  type TestClient,
  type TestOrg,
} from '../../../test/helpers';
import { epoch, iso as isoOf, serial, xt1Body } from '../../../test/shipment-factories';
import { pdfWords, verdictText, zonedIso, zonedText } from './report-times.fixtures';

const XT1 = '/api/devices/xt1';
/** A zone with a half-hour offset, so a time in UTC or the server's zone cannot pass for it. */
const ZONE = 'America/St_Johns';
/**
 * 14 points at 60 s, high 8 and low 2: four alarms, high at points 1-2, 4-5
 * and 7-8, low at 10-11 (the one a lower low threshold closes).
 */
const TEMPS = [5, 10, 10.5, 5, 9, 9.5, 5, 11, 11.5, 5, 1, 1.5, 5, 5];
const ACK_COMMENT = 'Stability data checked: product released';
const DISMISS_REASON = 'Probe was out of the box during loading (photo in deviation DV-7)';
const CLOSE_REASON = 'Product label allows down to 0 °C (change control CC-42)';

/** A time as the PDF and the XLSX print it (`07/01/2026, 07:30:00 UTC-02:30`), and as the CSV writes it. */
const text = (at: string | Date) => zonedText(at, ZONE);
const iso = (at: string | Date) => zonedIso(at, ZONE);

/** pdftotext wraps table cells: compare with runs of white space made one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** One alarm's cells by column title (CSV and XLSX alarm lists). */
type Row = Record<string, string>;

/**
 * Issue 11: "CSV and XLSX carry the alarms (with state, acknowledgement,
 * signature and reason) and the audit trail, so all formats and the web page
 * agree on the alarm list; a test compares them for one record." One record
 * with an open alarm, an acknowledged and signed one, a dismissed one with a
 * reason and a closed one (with cause, reason and closing signature); its PDF,
 * CSV and XLSX against GET alarms/ and the record's audit trail.
 */
describe('every report format tells the same story of the alarms [RULE-REPORT-1, RULE-REPORT-2, RULE-ALARM-2]', () => {
  let t: TestApp;
  let org: TestOrg;
  let manager: TestClient;
  let managerName: string;
  let operator: TestClient;
  let operatorName: string;
  let recordId: string;
  let api: TExcursionAlarm[];

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({
      role: 'Administrator',
      firstName: 'Quality',
      lastName: 'Manager',
    });
    org = signedIn.orgs[0]!;
    manager = signedIn.client;
    managerName = signedIn.user.username;
    const op = await t.signIn({ role: 'Operator', orgs: [org] });
    operator = op.client;
    operatorName = op.user.username;
    const settings = await manager.patch('/api/auth/user-settings/', {
      degrees_unit: 'F',
      timezone: ZONE,
    });
    expect(settings.statusCode, settings.body).toBe(200);

    const sn = serial('ALM');
    const start = epoch(new Date('2026-07-01T10:00:00Z'));
    const started = await manager.post(
      `${XT1}/start-action/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: isoOf(start),
        num_consecutive_excursions: 1,
      }),
    );
    expect(started.statusCode, started.body).toBe(200);
    recordId = started.json().record_id;
    const scanned = await manager.post(
      `${XT1}/scans/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: isoOf(start + 900), temps: TEMPS }),
    );
    expect(scanned.statusCode, scanned.body).toBe(200);

    const raised = await listAlarms();
    expect(raised).toHaveLength(4);
    const [open, signed, dismissed, closed] = raised;
    expect([open, signed, dismissed, closed].map((a) => a!.state)).toEqual([
      'OPEN',
      'OPEN',
      'OPEN',
      'OPEN',
    ]);
    expect(closed!.above_or_below).toBe('BELOW');

    // Acknowledged and signed by the manager.
    let res = await manager.post(`${XT1}/alarm-acknowledge/`, {
      alarm_ids: [signed!.id],
      comment: ACK_COMMENT,
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'APPROVED',
    });
    expect(res.statusCode, res.body).toBe(200);
    // Dismissed by the operator, with the reason.
    res = await operator.post(`${XT1}/alarm-dismiss/`, {
      alarm_ids: [dismissed!.id],
      client_type: 'WEB',
      reason: DISMISS_REASON,
    });
    expect(res.statusCode, res.body).toBe(200);
    // Closed by a signed threshold change: the low threshold lowered from 2 to 0 °C.
    res = await manager.post(`${XT1}/update-shipment-action/`, {
      record_id: recordId,
      low_threshold: 0,
      timestamp: isoOf(start + 3600),
      reason: CLOSE_REASON,
      password: TEST_PASSWORD,
      meaning: 'APPROVED',
    });
    expect(res.statusCode, res.body).toBe(200);

    api = await listAlarms();
  });
  afterAll(() => t.close());

  /** The record's alarms as the web page reads them, in the reports' order (first point). */
  async function listAlarms(): Promise<TExcursionAlarm[]> {
    const res = await manager.get(
      `${XT1}/alarms/?record_id=${recordId}&include_acknowledged=true&include_dismissed=true`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return z
      .array(ZExcursionAlarm)
      .parse(res.json())
      .sort((a, b) => a.first_point_idx! - b.first_point_idx!);
  }

  async function download(kind: 'pdf' | 'csv' | 'xlsx'): Promise<Buffer> {
    const made = await manager.post(`${XT1}/reports/${kind}/`, { record_id: recordId });
    expect(made.statusCode, made.body).toBe(200);
    const res = await manager.get(ZFileReference.parse(made.json()).localUrl!);
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload;
  }

  /** What every format must say of each alarm, from the API's answer; times as `write` writes them. */
  function expected(a: TExcursionAlarm, write: (at: string) => string = text) {
    return {
      id: a.id!,
      state: ALARM_STATE_LABELS[a.state!],
      acknowledgedBy: a.acknowledged_by ?? '',
      acknowledgedAt: a.acknowledged_at ? write(a.acknowledged_at) : '',
      signedBy: a.signature?.printed_name ?? '',
      signatureMeaning: a.signature ? SIGNATURE_MEANING_LABELS[a.signature.meaning] : '',
      dismissedBy: a.dismissed_by ?? '',
      dismissReason: a.dismiss_reason ?? '',
      closedAt: a.closed_at ? write(a.closed_at) : '',
      closedBy: a.state === 'CLOSED' ? (a.closed_by ?? 'System') : '',
      closeCause: a.close_cause ? ALARM_CLOSE_CAUSE_LABELS[a.close_cause] : '',
      closeReason: a.close_reason ?? '',
      closeSignedBy: a.close_signature?.printed_name ?? '',
    };
  }

  /** The fields of a CSV or XLSX alarm row that `expected` names. */
  function fromRow(r: Row) {
    return {
      id: r['Alarm']!,
      state: r['State']!,
      acknowledgedBy: r['Acknowledged by']!,
      acknowledgedAt: r[`Acknowledged at (${ZONE})`]!,
      signedBy: r['Signed by']!,
      signatureMeaning: r['Signature meaning']!,
      dismissedBy: r['Dismissed by']!,
      dismissReason: r['Dismissal reason']!,
      closedAt: r[`Closed at (${ZONE})`]!,
      closedBy: r['Closed by']!,
      closeCause: r['Close cause']!,
      closeReason: r['Close reason']!,
      closeSignedBy: r['Closing signed by']!,
    };
  }

  /** The record's audit trail from the API, oldest first as reports print it: when, who, what, reason. */
  async function auditRows(write: (at: string) => string = text): Promise<string[][]> {
    const res = await manager.get(`/api/audit/?page_size=1000&record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    return z
      .array(ZAuditEvent)
      .parse(res.json())
      .reverse()
      .map((e) => [
        write(e.occurred_at),
        e.actor_name,
        `${auditActionLabel(e.action)}${e.entity_type === 'alarm' ? ` #${e.entity_id}` : ''}`,
        e.reason ?? '',
      ]);
  }

  /** The release decision's label and value lines of each format (issue 14 item 2), times as the PDF prints them. */
  async function decisionLines() {
    const csvText = (await download('csv')).toString('utf8').replace(/^\uFEFF/, '');
    const csvLines: string[][] = parse(csvText, { relax_column_count: true });
    const csv = csvLines
      .filter((l) => l[0]?.startsWith('Release decision') || l[0]?.startsWith('Decision '))
      .map((l) => `${l[0]}: ${l[0] === 'Decision signed at' ? text(new Date(l[1]!)) : l[1]}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download('xlsx')) as unknown as ArrayBuffer);
    const xlsx: string[] = [];
    workbook.getWorksheet(`Record ${recordId}`)!.eachRow((row) => {
      const label = String(row.getCell(1).value ?? '');
      if (!label.startsWith('Release decision') && !label.startsWith('Decision ')) return;
      const v = row.getCell(2).value;
      // A date cell holds the wall-clock time in the zone, its offset in the next cell.
      xlsx.push(
        `${label}: ${v instanceof Date ? wallText(v, String(row.getCell(3).value)) : String(v)}`,
      );
    });
    const pdfText = flat(
      execFileSync('pdftotext', ['-', '-'], { input: await download('pdf') }).toString('utf8'),
    );
    return { csv, xlsx, verdict: verdictText(pdfText) };
  }

  it('before any decision every format says there is no release decision', async () => {
    const { csv, xlsx, verdict } = await decisionLines();
    expect(csv).toEqual(['Release decision: No release decision']);
    expect(xlsx).toEqual(csv);
    expect(verdict).toContain('Release decision: No release decision');
  });

  it('the API answers the four alarms with their states, reasons and acknowledgers', () => {
    const byState = api.map((a) => [a.state, a.acknowledged, a.dismissed]);
    expect(byState).toEqual([
      ['OPEN', false, false],
      ['OPEN', true, false],
      ['OPEN', false, true],
      ['CLOSED', false, false],
    ]);
    expect(api[1]!.acknowledged_by).toBe(managerName);
    expect(api[1]!.signature?.printed_name).toBe('Quality Manager');
    expect(api[2]!.dismissed_by).toBe(operatorName);
    expect(api[2]!.dismiss_reason).toBe(DISMISS_REASON);
    expect(api[3]).toMatchObject({
      close_cause: 'THRESHOLD_CHANGE',
      close_reason: CLOSE_REASON,
      closed_by: managerName,
    });
    expect(api[3]!.close_signature?.purpose).toBe('CLOSE');
  });

  it('CSV: the Alarms section has the same alarms, states, reasons and acknowledgers as the API', async () => {
    const text = (await download('csv')).toString('utf8').replace(/^\uFEFF/, '');
    const lines: string[][] = parse(text, { relax_column_count: true, skip_empty_lines: false });
    const section = (title: string) => {
      const at = lines.findIndex((l) => l.length === 1 && l[0] === title);
      expect(at, title).toBeGreaterThan(0);
      // The section ends at the blank line.
      const end = lines.findIndex((l, i) => i > at && l.length === 1 && l[0] === '');
      const [header, ...rows] = lines.slice(at + 1, end);
      return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
    };
    const rows = section('Alarms');
    expect(rows.map(fromRow)).toEqual(api.map((a) => expected(a, iso)));
    // The closed alarm's closing signature with its meaning, the dismissed one's time.
    expect(rows[3]!['Closing signature meaning']).toBe('Approved');
    expect(rows[2]![`Dismissed at (${ZONE})`]).toBe(iso(api[2]!.dismissed_at!));
    // The audit trail: the same entries (time in the zone, reason) as the API's.
    const trail = section('Audit trail').map((r) => [
      r[`When (${ZONE})`]!,
      r['Who']!,
      r['What']!,
      r['Reason']!,
    ]);
    expect(trail).toEqual(await auditRows(iso));
    // The readings still follow, as one table under their own header.
    const readings = lines.findIndex((l) => l[0] === 'Index');
    expect(lines.slice(readings + 1)).toHaveLength(TEMPS.length);
  });

  it('XLSX: the Alarms and Audit trail sheets have the same alarms and entries as the API', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download('xlsx')) as unknown as ArrayBuffer);
    const sheetRows = (name: string): Row[] => {
      const sheet = workbook.getWorksheet(name);
      expect(sheet, name).toBeDefined();
      const values: string[][] = [];
      sheet!.eachRow((row) => {
        const cells: string[] = [];
        for (let c = 1; c <= sheet!.columnCount; c++) {
          const v = row.getCell(c).value;
          cells.push(v === null || v === undefined ? '' : String(v));
        }
        values.push(cells);
      });
      const [header, ...rows] = values;
      return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
    };
    const rows = sheetRows('Alarms');
    expect(rows.map(fromRow)).toEqual(api.map((a) => expected(a)));
    const trail = sheetRows('Audit trail').map((r) => [
      r[`When (${ZONE})`]!,
      r['Who']!,
      r['What']!,
      r['Reason']!,
    ]);
    expect(trail).toEqual(await auditRows());
  });

  it('PDF: each alarm with its state, closing, acknowledgement and dismissal as the API says', async () => {
    const pdf = await download('pdf');
    const rows = pdfAlarmRows(pdf);
    expect(rows.map((r) => r.alarm)).toEqual(
      api.map(
        (a) =>
          `${a.above_or_below === 'BELOW' ? 'Low' : 'High'} excursion #${a.id} ${ALARM_STATE_LABELS[a.state!]}`,
      ),
    );
    api
      .map((a) => expected(a))
      .forEach((e, i) => {
        const review = rows[i]!.review;
        if (e.closedBy) {
          expect(review).toContain(`Closed by ${e.closedBy}, ${e.closedAt}`);
          expect(review).toContain(`Cause: ${e.closeCause}`);
          expect(review).toContain(`Reason: ${e.closeReason}`);
          expect(review).toContain(`Closing signed by ${e.closeSignedBy}`);
        } else {
          expect(review).not.toContain('Closed by');
        }
        if (e.signedBy) {
          expect(review).toContain(`Signed by ${e.signedBy}`);
          expect(review).toContain(`Meaning: ${e.signatureMeaning}`);
          expect(review).toContain(`Comment: ${ACK_COMMENT}`);
        } else {
          expect(review).toContain('Not acknowledged');
        }
        if (e.dismissedBy) {
          expect(review).toContain(`Dismissed by ${e.dismissedBy}`);
          expect(review).toContain(`Reason: ${e.dismissReason}`);
        } else {
          expect(review).not.toContain('Dismissed');
        }
      });
    const text = flat(execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString('utf8'));
    expect(text).not.toContain('no longer holds');
    // The audit trail's reasons and the verdict.
    for (const [, , , reason] of await auditRows()) {
      if (reason) expect(text).toContain(reason);
    }
    const verdict = verdictText(text);
    expect(verdict).toContain('4 alarms: 3 open, 1 closed; 1 dismissed.');
    expect(verdict).toContain('2 electronic signatures: 1 acknowledgement, 1 closing change.');
    expect(verdict).toContain('3 of 4 alarms are not acknowledged.');
  });

  it('a signed release decision: every format tells the current one (decision, who, when, meaning, comment)', async () => {
    const sign = (decision: string, comment: string) =>
      manager.post(`${XT1}/records/disposition/`, {
        record_id: recordId,
        decision,
        comment,
        password: TEST_PASSWORD,
      });
    // Not released while alarms await acknowledgement; quarantined, then rejected
    // (the signature means what the decision is: a rejection, issue 35).
    expect((await sign('RELEASED', 'no')).statusCode).toBe(409);
    expect((await sign('QUARANTINED', 'Held for review')).statusCode).toBe(200);
    const res = await sign('REJECTED', 'Excursions beyond the stability data (deviation DV-7)');
    expect(res.statusCode, res.body).toBe(200);
    const d = ZRecord.parse(res.json()).disposition!;
    const story = [
      'Release decision: Rejected',
      'Decision signed by: Quality Manager',
      `Decision signed at: ${text(d.signed_at)}`,
      'Decision signature meaning: Rejected',
      'Decision comment: Excursions beyond the stability data (deviation DV-7)',
    ];
    const { csv, xlsx, verdict } = await decisionLines();
    expect(csv).toEqual(story);
    expect(xlsx).toEqual(story);
    for (const line of story) expect(verdict).toContain(line);
    expect(verdict).not.toContain('Held for review');
  });
});

/** `07/01/2026, 07:30:00 UTC-02:30` of an XLSX date cell (the wall clock read as UTC) and its offset cell. */
function wallText(wallAsUtc: Date, offset: string): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const d = wallAsUtc;
  return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()}, ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${offset}`;
}

/**
 * The PDF's alarm table, one entry per row: the first column (kind, id,
 * state) and the last (closing, acknowledgement, signatures, dismissal), each
 * as one line of text. Columns are told apart by the header's positions on
 * each page, rows by the first column's `High` / `Low`.
 */
function pdfAlarmRows(pdf: Buffer): { alarm: string; review: string }[] {
  const words = pdfWords(pdf);
  const at = (i: number, ...texts: string[]) => texts.every((t, k) => words[i + k]?.text === t);
  const start = words.findIndex((_, i) => at(i, 'Alarm', 'and', 'state'));
  // The table ends where the audit trail's section begins.
  const end = words.findIndex((_, i) => i > start && at(i, 'Audit', 'trail'));
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  // Without the page footers (`Coldtrace · ...` at the bottom of every page).
  const footerY = new Map(words.filter((w) => w.text === 'Coldtrace').map((w) => [w.page, w.y]));
  const table = words
    .slice(start, end)
    .filter((w) => w.y < (footerY.get(w.page) ?? Infinity) - 0.5);
  const columns = new Map<number, { startX: number; reviewX: number }>();
  table.forEach((w, i) => {
    if (w.text === 'Start' && table[i + 1]?.text === '/') {
      const review = table.find((v) => v.page === w.page && v.text === 'Closing,');
      columns.set(w.page, { startX: w.xMin, reviewX: review!.xMin });
    }
  });
  const rowStarts = table.filter(
    (w) =>
      (w.text === 'High' || w.text === 'Low') &&
      w.xMin < columns.get(w.page)!.startX &&
      w.y > table.find((v) => v.page === w.page && v.text === 'Closing,')!.y,
  );
  const rows = rowStarts.map(() => ({ alarm: [] as string[], review: [] as string[] }));
  const ordered = [...table].sort((a, b) => a.page - b.page || a.y - b.y || a.xMin - b.xMin);
  for (const w of ordered) {
    let row = -1;
    rowStarts.forEach((r, k) => {
      if (r.page === w.page && r.y <= w.y + 0.5) row = k;
    });
    if (row < 0) continue;
    const { startX, reviewX } = columns.get(w.page)!;
    if (w.xMin < startX - 1) rows[row]!.alarm.push(w.text);
    else if (w.xMin >= reviewX - 1) rows[row]!.review.push(w.text);
  }
  return rows.map((r) => ({ alarm: r.alarm.join(' '), review: r.review.join(' ') }));
}
