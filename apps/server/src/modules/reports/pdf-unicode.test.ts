import { execFileSync } from 'node:child_process';
import type { TRecord } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { renderCertificatePdf } from '../calibration/certificate-pdf';
import { textRuns } from './pdf-fonts';
import { printable } from './pdf-layout';
import { renderPdf } from './render-pdf';
import type { ReportData } from './report-model';

/**
 * Names in any script print in the PDFs (the fonts of pdf-fonts.ts): what
 * pdftotext reads back from the report and the calibration certificate is the
 * text that went in.
 */

const NAMES = {
  organization: 'Łódź Pharma Müller 東京',
  primary: 'Ωmega-42',
  shipper: 'Иванов и партнёры',
  receiver: '東京中央薬局',
  carrier: 'Ålesund Frakt ØÆ 東京 Łódź',
  author: 'Zoë Œuvre-Đorđević',
};

function text(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], {
    input: pdf,
  })
    .toString('utf8')
    .replace(/\s+/g, ' '); // words wrapped onto the next line still read in order
}

function fonts(pdf: Buffer): string {
  return execFileSync('pdffonts', ['-'], { input: pdf }).toString('utf8');
}

function report(): ReportData {
  const record: TRecord = {
    id: '4711',
    tag_serial_number: 'XT1-ÜNI',
    tag_type: 'XT1_NFC_MU',
    primary_reference: NAMES.primary,
    carrier: NAMES.carrier,
    shipper_name_address: { id: '1', name: NAMES.shipper },
    receiver_name_address: { id: '2', name: NAMES.receiver },
    high_threshold: 8,
    low_threshold: 2,
    number_of_points: 3,
    status: 'OK',
  };
  return {
    organizationName: NAMES.organization,
    record,
    alarms: [],
    audit: [
      {
        occurredAt: new Date(Date.UTC(2026, 10, 1, 8)),
        actorName: NAMES.author,
        action: 'record.shipment.update',
        field: 'carrier',
        oldValue: 'Road Express',
        newValue: NAMES.carrier,
        reason: 'Süß → Ørsted',
      },
    ],
    temps: [5, 5.5, 6],
    timing: { startTimeSeconds: Date.UTC(2026, 10, 1) / 1000, startDelay: 0, intervalSeconds: 60 },
    unit: 'C',
    timeZone: 'Europe/Warsaw',
    generatedAt: new Date(Date.UTC(2026, 10, 2)),
    generatedBy: NAMES.author,
  };
}

describe('PDFs print names in any script [RULE-REPORT-1]', () => {
  it('the report keeps Polish, German, Greek, Cyrillic, Japanese and Nordic names intact', async () => {
    const pdf = await renderPdf(report());
    const out = text(pdf);
    for (const name of [...Object.values(NAMES), 'Süß → Ørsted', 'XT1-ÜNI']) {
      expect(out, name).toContain(name);
    }
    // Embedded subsets, not a built-in font that cannot hold these letters.
    const embedded = fonts(pdf);
    expect(embedded).toMatch(/DejaVuSans/);
    expect(embedded).toMatch(/NotoSansJP/);
    expect(embedded).not.toMatch(/Helvetica/);
    // Subsets keep the file small.
    expect(pdf.length).toBeLessThan(120_000);
  });

  it('the calibration certificate uses the same fonts', async () => {
    const pdf = await renderCertificatePdf({
      organizationName: NAMES.organization,
      certificate: {
        id: '5b0c1d2e-0000-4000-8000-000000000001',
        organizationId: '5b0c1d2e-0000-4000-8000-000000000002',
        modelName: 'Термометр Ω-3',
        equipment: [
          { manufacturer: 'Łukasiewicz Instruments', model: '東京 T1', serial_number: 'S1' },
        ],
        specifications: [
          { temperature_range_low: -20, temperature_range_high: 30, dut_error: 0.5 },
        ],
        createdByUserId: null,
        createdByName: NAMES.author,
        created: new Date(Date.UTC(2026, 10, 1)),
      },
      device: {
        tagId: 7,
        tagType: 'XT1_NFC_MU',
        calibrationTimestamp: null,
        calibrationDue: new Date(Date.UTC(2027, 10, 1)),
        serialNumber: 'SN-Ж7',
      },
      devices: [],
      unit: 'C',
      timeZone: 'Europe/Berlin',
      generatedAt: new Date(Date.UTC(2026, 10, 2)),
    });
    const out = text(pdf);
    for (const name of [
      NAMES.organization,
      'Термометр Ω-3',
      'Łukasiewicz Instruments',
      '東京 T1',
      NAMES.author,
      'SN-Ж7',
      '± 0.5 °C',
    ]) {
      expect(out, name).toContain(name);
    }
    expect(fonts(pdf)).not.toMatch(/Helvetica/);
  });

  it('sets each letter in a font that has it: DejaVu for Latin and Cyrillic, Noto Sans JP for 東京', () => {
    expect(textRuns('Łódź 東京 Иванов')).toEqual([
      { text: 'Łódź ', cjk: false },
      { text: '東京 ', cjk: true },
      { text: 'Иванов', cjk: false },
    ]);
    expect(textRuns('Müller')).toEqual([{ text: 'Müller', cjk: false }]);
  });

  it('drops control characters and mends half characters, keeping every script', () => {
    expect(printable('Łódź\u0007 東京\u0000')).toBe('Łódź 東京');
    expect(printable('a\ud800b')).toBe('a\ufffdb');
    expect(printable('😀 line\nbreak')).toBe('😀 line\nbreak');
  });
});
