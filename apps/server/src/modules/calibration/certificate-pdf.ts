import type { TDegreesUnit } from '@coldtrace/contract';
import { MISSING_VALUE, resolveTimeZone, toDisplayUnit } from '@coldtrace/domain';
import type { CalibrationCertificateRow } from '../../db/schema-reports';
import {
  createDocument,
  CONTENT_WIDTH,
  finish,
  INK,
  keyValueGrid,
  MARGIN,
  MUTED,
  printable,
  section,
  table,
} from '../reports';
import { useFont, writeText } from '../reports';
import { formatWall, wallClock } from '../reports';

export interface CertificateDevice {
  tagId: number;
  tagType: string | null;
  calibrationTimestamp: Date | null;
  calibrationDue: Date;
  serialNumber: string | null;
}

export interface CertificateData {
  organizationName: string;
  certificate: CalibrationCertificateRow;
  device: CertificateDevice;
  devices: CertificateDevice[];
  unit: TDegreesUnit;
  timeZone: string;
  generatedAt: Date;
}

/** A temperature difference (the DUT error) in the unit: the factor 1.8 alone, one decimal. */
function difference(celsius: number, unit: TDegreesUnit): string {
  return (unit === 'F' ? Math.round(celsius * 18) / 10 : Math.round(celsius * 10) / 10).toFixed(1);
}

/** The certificate's PDF document. */
type Doc = PDFKit.PDFDocument;

/** A time in the reader's zone, as the certificate prints it. */
type WallTime = (d: Date | null) => string;

function deviceSection(doc: Doc, data: CertificateData, at: WallTime, zone: string): void {
  const c = data.certificate;
  section(doc, 'Device');
  keyValueGrid(
    doc,
    [
      { label: 'Serial number', value: data.device.serialNumber ?? MISSING_VALUE },
      { label: 'Tag id', value: String(data.device.tagId) },
      { label: 'Tag type', value: (data.device.tagType ?? MISSING_VALUE).replace(/_/g, ' ') },
      { label: 'Calibrated', value: at(data.device.calibrationTimestamp) },
      { label: 'Next calibration due', value: at(data.device.calibrationDue) },
      { label: 'Model', value: c.modelName },
      { label: 'Uploaded', value: `${at(c.created)} by ${c.createdByName}` },
    ],
    zone,
    2,
  );
}

function specificationsSection(doc: Doc, data: CertificateData): void {
  const c = data.certificate;
  const u = `°${data.unit}`;
  const temperature = (v: number | undefined) =>
    v === undefined ? MISSING_VALUE : `${toDisplayUnit(v, data.unit).toFixed(1)} ${u}`;
  section(doc, 'Specifications');
  table(
    doc,
    [
      { title: 'Range low', width: 1 },
      { title: 'Range high', width: 1 },
      { title: 'Device-under-test error', width: 1 },
    ],
    c.specifications.map((s) => [
      temperature(s.temperature_range_low),
      temperature(s.temperature_range_high),
      s.dut_error === undefined ? MISSING_VALUE : `± ${difference(s.dut_error, data.unit)} ${u}`,
    ]),
    'No specifications listed.',
  );
}

function devicesSection(doc: Doc, data: CertificateData, at: WallTime): void {
  section(doc, 'Devices on this certificate');
  table(
    doc,
    [
      { title: 'Serial number', width: 1 },
      { title: 'Tag id', width: 1 },
      { title: 'Tag type', width: 1 },
      { title: 'Calibrated', width: 1 },
      { title: 'Due', width: 1 },
    ],
    data.devices.map((d) => [
      d.serialNumber ?? MISSING_VALUE,
      String(d.tagId),
      (d.tagType ?? MISSING_VALUE).replace(/_/g, ' '),
      at(d.calibrationTimestamp),
      at(d.calibrationDue),
    ]),
    'No devices listed.',
  );
}

/**
 * The calibration certificate of one device as PDF: the device and the
 * certificate, the reference equipment, the specifications (ranges in the
 * reader's unit, the device-under-test error as a difference) and the other
 * devices the certificate covers.
 */
export async function renderCertificatePdf(data: CertificateData): Promise<Buffer> {
  const zone = resolveTimeZone(data.timeZone);
  const wall = wallClock(zone);
  const at = (d: Date | null) => (d ? formatWall(wall(d.getTime())) : MISSING_VALUE);
  const c = data.certificate;
  const u = `°${data.unit}`;
  const doc = createDocument({
    Title: `Calibration certificate, tag ${data.device.serialNumber ?? data.device.tagId}`,
    Subject: printable(`${data.organizationName}: certificate ${c.id}`),
  });

  useFont(doc, '', true).fillColor(INK).fontSize(18);
  doc.text('Calibration certificate', MARGIN, MARGIN, { width: CONTENT_WIDTH });
  const who = printable(`${data.organizationName}  ·  Certificate ${c.id}`);
  doc.fontSize(10).fillColor(MUTED);
  writeText(doc, who, { width: CONTENT_WIDTH });
  useFont(doc, '');
  doc.text(`Times in ${zone}, temperatures in ${u}`, { width: CONTENT_WIDTH });

  deviceSection(doc, data, at, zone);

  section(doc, 'Reference equipment');
  table(
    doc,
    [
      { title: 'Manufacturer', width: 22 },
      { title: 'Model', width: 22 },
      { title: 'Serial number', width: 20 },
      { title: 'Description', width: 36 },
    ],
    c.equipment.map((e) => [
      e.manufacturer ?? MISSING_VALUE,
      e.model ?? MISSING_VALUE,
      e.serial_number ?? MISSING_VALUE,
      e.description ?? '',
    ]),
    'No reference equipment listed.',
  );

  specificationsSection(doc, data);
  devicesSection(doc, data, at);

  return finish(
    doc,
    `Coldtrace · ${data.organizationName} · Calibration certificate ${c.id} · Generated ${at(data.generatedAt)} (${zone})`,
  );
}
