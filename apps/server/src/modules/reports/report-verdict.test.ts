import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { ZExcursionAlarm, ZFileReference } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, TEST_PASSWORD, type TestApp, type TestClient } from '../../../test/helpers';
import { epoch, iso, serial, xt1Body } from '../../../test/shipment-factories';
import { BOTTOM, createDocument, finish, paragraph } from './pdf-layout';
import { pdfWords, verdictText, type Word } from './report-times.fixtures';

/**
 * Issue 35 item 6: "the PDF verdict on page 1 and no text over the footer, no
 * doubled reason". A record with 40 one-point excursions, each acknowledged
 * with a signature, and a signed rejection: a PDF of several pages.
 */

const XT1 = '/api/devices/xt1';
const ALARMS = 40;
/** 5 °C, then 10 °C (above the high threshold of 8) every other point: one alarm each. */
const TEMPS = Array.from({ length: 2 * ALARMS + 1 }, (_, i) => (i % 2 === 1 ? 10 : 5));
const COMMENT = 'Excursions beyond the stability data of lot L-4711 (deviation DV-31)';

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
const pdfText = (pdf: Buffer, ...pages: string[]) =>
  flat(execFileSync('pdftotext', [...pages, '-', '-'], { input: pdf }).toString('utf8'));

describe('the PDF verdict [RULE-REPORT-1]', () => {
  let t: TestApp;
  let manager: TestClient;
  let recordId: string;
  let pdf: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    manager = (await t.signIn({ role: 'Administrator', firstName: 'Quality', lastName: 'Lead' }))
      .client;
    const sn = serial('VRD');
    const start = epoch(new Date('2026-07-01T10:00:00Z'));
    const started = await manager.post(
      `${XT1}/start-action/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start),
        num_consecutive_excursions: 1,
      }),
    );
    expect(started.statusCode, started.body).toBe(200);
    recordId = started.json().record_id;
    const scanned = await manager.post(
      `${XT1}/scans/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 900), temps: TEMPS }),
    );
    expect(scanned.statusCode, scanned.body).toBe(200);
    const listed = await manager.get(`${XT1}/alarms/?record_id=${recordId}`);
    expect(listed.statusCode, listed.body).toBe(200);
    const ids = z
      .array(ZExcursionAlarm)
      .parse(listed.json())
      .map((a) => a.id!);
    expect(ids).toHaveLength(ALARMS);
    const acked = await manager.post(`${XT1}/alarm-acknowledge/`, {
      alarm_ids: ids,
      comment: 'Checked against the stability data',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'APPROVED',
    });
    expect(acked.statusCode, acked.body).toBe(200);
    const decided = await manager.post(`${XT1}/records/disposition/`, {
      record_id: recordId,
      decision: 'REJECTED',
      comment: COMMENT,
      password: TEST_PASSWORD,
    });
    expect(decided.statusCode, decided.body).toBe(200);

    const made = await manager.post(`${XT1}/reports/pdf/`, { record_id: recordId });
    expect(made.statusCode, made.body).toBe(200);
    const res = await manager.get(ZFileReference.parse(made.json()).localUrl!);
    expect(res.statusCode, res.body).toBe(200);
    pdf = res.rawPayload;
    mkdirSync('/tmp/shots', { recursive: true });
    writeFileSync('/tmp/shots/pdf-verdict.pdf', pdf);
  });
  afterAll(() => t.close());

  it('is on page 1, before the chart, with the decision and its comment', () => {
    const page1 = pdfText(pdf, '-f', '1', '-l', '1');
    expect(page1).toContain('Verdict');
    expect(page1).toContain('Release decision: Rejected');
    expect(page1).toContain(`Decision comment: ${COMMENT}`);
    expect(page1).toContain(`${ALARMS} alarms: ${ALARMS} open, 0 closed.`);
    // After the summary, before the chart (here on a later page, after the 40 signatures).
    const text = pdfText(pdf);
    expect(text.indexOf('Verdict')).toBeGreaterThan(text.indexOf('Summary'));
    expect(verdictText(text)).toContain(`Decision comment: ${COMMENT}`);
    expect(text.indexOf('Temperature (°')).toBeGreaterThan(
      text.indexOf(`Decision comment: ${COMMENT}`),
    );
  });

  it('prints the decision comment once, though the audit trail also holds it', async () => {
    const audit = await manager.get(`/api/audit/?page_size=1000&record_id=${recordId}`);
    expect(audit.statusCode, audit.body).toBe(200);
    const reasons = (audit.json() as { reason: string | null }[]).map((e) => e.reason ?? '');
    expect(reasons.some((r) => r.includes(COMMENT))).toBe(true);
    const text = pdfText(pdf);
    expect(text.split(COMMENT)).toHaveLength(2);
    // The trail's entry of the decision points to the verdict.
    expect(text.slice(text.lastIndexOf('Audit trail'))).toContain(
      'Rejected: Rejected: (in the verdict)',
    );
  });

  it('puts no word below the footer top but the footer, on every page', () => {
    const words = pdfWords(pdf);
    // pdfWords numbers the pages from 1.
    const pages = [...new Set(words.map((w) => w.page))];
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) {
      const onPage = words.filter((w) => w.page === page);
      // The footer's line: the last `Coldtrace` of the page and the words beside it.
      const mark = onPage.filter((w) => w.text === 'Coldtrace').at(-1);
      expect(mark, `page ${page} footer`).toBeDefined();
      const line = onPage
        .filter((w) => Math.abs(w.y - mark!.y) < 0.5)
        .sort((a, b) => a.xMin - b.xMin);
      // Only the footer's words on its line: its text, and no two words over each other.
      expect(flat(line.map((w) => w.text).join(' '))).toMatch(
        new RegExp(
          `^Coldtrace · .* · Record ${recordId} · Generated .* Page ${page} of ${pages.length}$`,
        ),
      );
      line.forEach((w, i) => i > 0 && expect(w.xMin).toBeGreaterThan(line[i - 1]!.xMax));
      const top = Math.min(...line.map((w) => w.y));
      const below = onPage.filter((w: Word) => !line.includes(w) && w.yMax > top);
      expect(
        below.map((w) => w.text),
        `page ${page}`,
      ).toEqual([]);
    }
  });
});

describe('a text block near the foot of a page [RULE-REPORT-1]', () => {
  it('moves to a new page instead of crossing the footer', async () => {
    const doc = createDocument({ Title: 'layout' });
    doc.fontSize(10);
    doc.y = BOTTOM - 4;
    paragraph(doc, 'Release decision: Rejected');
    const words = pdfWords(await finish(doc, 'Coldtrace footer'));
    const top = words.find((w) => w.page === 1 && w.text === 'Coldtrace')!.y;
    const block = words.filter((w) => w.text === 'Rejected');
    expect(block).toHaveLength(1);
    expect(block[0]!.page).toBe(2);
    expect(block[0]!.yMax).toBeLessThan(top);
  });
});
