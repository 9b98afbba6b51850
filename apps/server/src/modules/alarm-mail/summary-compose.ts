import type { SummaryPeriod } from './summary-period';
import type { SummaryShipment } from './summary-repository';

/**
 * The text and HTML of a scheduled summary (issue 15,
 * docs/decisions/scheduled-reports.md): the period, a table per lane
 * (origin → destination) and carrier, and each shipment in alarm with its
 * link and whether its PDF is attached. Neutral wording: counts, no verdicts.
 */

/** Most PDFs attached to one summary; more shipments in alarm: links only. */
export const SUMMARY_MAX_ATTACHMENTS = 10;
/** Most bytes of PDFs attached to one summary (5 MB); more: links only. */
export const SUMMARY_MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export interface LaneCarrierRow {
  origin: string;
  destination: string;
  carrier: string;
  shipments: number;
  shipmentsWithAlarms: number;
  alarms: number;
  open: number;
  closed: number;
  acknowledged: number;
  unacknowledged: number;
}

const NO_LOCATION = '(none)';
const NO_CARRIER = '(none)';

/** Rows per lane and carrier, by origin, destination and carrier name. */
export function laneCarrierRows(shipments: readonly SummaryShipment[]): LaneCarrierRow[] {
  const rows = new Map<string, LaneCarrierRow>();
  for (const s of shipments) {
    const origin = s.origin ?? NO_LOCATION;
    const destination = s.destination ?? NO_LOCATION;
    const carrier = s.carrier.trim() === '' ? NO_CARRIER : s.carrier.trim();
    const key = JSON.stringify([s.originId, s.destinationId, carrier.toLowerCase()]);
    const row = rows.get(key) ?? {
      origin,
      destination,
      carrier,
      shipments: 0,
      shipmentsWithAlarms: 0,
      alarms: 0,
      open: 0,
      closed: 0,
      acknowledged: 0,
      unacknowledged: 0,
    };
    row.shipments += 1;
    if (s.alarms > 0) row.shipmentsWithAlarms += 1;
    row.alarms += s.alarms;
    row.open += s.open;
    row.closed += s.closed;
    row.acknowledged += s.acknowledged;
    row.unacknowledged += s.alarms - s.acknowledged;
    rows.set(key, row);
  }
  return [...rows.values()].sort(
    (a, b) =>
      a.origin.localeCompare(b.origin) ||
      a.destination.localeCompare(b.destination) ||
      a.carrier.localeCompare(b.carrier),
  );
}

export function periodText(period: SummaryPeriod): string {
  return period.schedule === 'DAILY'
    ? `${period.firstDay} (${period.timeZone})`
    : `week ${period.key}, ${period.firstDay} to ${period.lastDay} (${period.timeZone})`;
}

export interface SummaryMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const COLUMNS = [
  'Origin',
  'Destination',
  'Carrier',
  'Shipments',
  'With alarms',
  'Alarms',
  'Open',
  'Closed',
  'Acknowledged',
  'Not acknowledged',
];

const cells = (r: LaneCarrierRow) => [
  r.origin,
  r.destination,
  r.carrier,
  String(r.shipments),
  String(r.shipmentsWithAlarms),
  String(r.alarms),
  String(r.open),
  String(r.closed),
  String(r.acknowledged),
  String(r.unacknowledged),
];

export function composeSummary(input: {
  period: SummaryPeriod;
  shipments: readonly SummaryShipment[];
  /** The records whose PDF is attached. */
  attached: ReadonlySet<number>;
  recordLink: (recordId: number) => string;
  settingId: number;
}): SummaryMail {
  const { period, shipments, attached, recordLink } = input;
  const rows = laneCarrierRows(shipments);
  const inAlarm = shipments.filter((s) => s.alarms > 0);
  const what = period.schedule === 'DAILY' ? 'Daily' : 'Weekly';
  const subject =
    `${what} shipment summary ${period.schedule === 'DAILY' ? period.firstDay : period.key}: ` +
    `${shipments.length} shipment${shipments.length === 1 ? '' : 's'}, ${inAlarm.length} with alarms`;
  const pdfNote = (id: number) =>
    attached.has(id) ? 'PDF attached' : "PDF: sign in and use the record's Reports card";
  const lane = (s: SummaryShipment) =>
    `${s.origin ?? NO_LOCATION} → ${s.destination ?? NO_LOCATION}, ${s.carrier.trim() || NO_CARRIER}`;

  const text = [
    `${what} summary of the shipments that started in ${periodText(period)}.`,
    '',
    rows.length === 0
      ? 'No shipments started in this period.'
      : [
          'Per lane (origin → destination) and carrier:',
          ...rows.map(
            (r) =>
              `- ${r.origin} → ${r.destination}, ${r.carrier}: ${r.shipments} shipments, ` +
              `${r.shipmentsWithAlarms} with alarms; alarms ${r.alarms} (open ${r.open}, ` +
              `closed ${r.closed}; acknowledged ${r.acknowledged}, not acknowledged ${r.unacknowledged})`,
          ),
        ].join('\n'),
    '',
    ...(inAlarm.length === 0
      ? ['No shipment of this period has an alarm.']
      : [
          'Shipments with alarms:',
          ...inAlarm.map(
            (s) =>
              `- Record ${s.recordId} (tag ${s.tagSerialNumber}), ${lane(s)}: ${s.alarms} alarms. ` +
              `${recordLink(s.recordId)} (${pdfNote(s.recordId)})`,
          ),
        ]),
    '',
    `Sent by notification setting ${input.settingId}.`,
    '',
  ].join('\n');

  const th = COLUMNS.map((c) => `<th style="text-align:left;padding:2px 6px">${c}</th>`).join('');
  const trs = rows
    .map(
      (r) =>
        `<tr>${cells(r)
          .map((c) => `<td style="padding:2px 6px">${escapeHtml(c)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  const items = inAlarm
    .map(
      (s) =>
        `<li><a href="${escapeHtml(recordLink(s.recordId))}">Record ${s.recordId}</a> ` +
        `(tag ${escapeHtml(s.tagSerialNumber)}), ${escapeHtml(lane(s))}: ${s.alarms} alarms ` +
        `(${escapeHtml(pdfNote(s.recordId))})</li>`,
    )
    .join('');
  const html =
    `<p>${what} summary of the shipments that started in ${escapeHtml(periodText(period))}.</p>` +
    (rows.length === 0
      ? '<p>No shipments started in this period.</p>'
      : `<table style="border-collapse:collapse"><thead><tr>${th}</tr></thead><tbody>${trs}</tbody></table>`) +
    (inAlarm.length === 0
      ? '<p>No shipment of this period has an alarm.</p>'
      : `<p>Shipments with alarms:</p><ul>${items}</ul>`) +
    `<p>Sent by notification setting ${input.settingId}.</p>`;
  return { subject, text, html };
}
