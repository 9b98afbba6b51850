import { formatDateTime, formatDuration } from '@coldtrace/domain';
import type { FastifyInstance } from 'fastify';
import type { AlarmMailEventRow } from '../../db/schema-alarm-mail';
import type { AlarmRow, RecordRow } from '../../db/schema-shipments';
import { publicOrigin } from '../identity';
import type { TemplateValues } from './compose';

/**
 * The values an alarm e-mail's template is filled with (subject and body of
 * compose.ts), for a notification event and an escalation alike.
 */

const temp = (celsius: number | null | undefined): string =>
  celsius === null || celsius === undefined ? '-' : celsius.toFixed(1);
const utc = (date: Date | null | undefined): string =>
  date ? `${formatDateTime(date, 'UTC')} UTC` : '-';
const text = (value: string | null | undefined): string =>
  value === null || value === undefined || value.trim() === '' ? '-' : value;

function describeAlarm(alarm: AlarmRow): string {
  if (alarm.kind === 'no_data') {
    return `- No data since ${utc(alarm.startTime)} (${formatDuration(alarm.duration)} when raised)`;
  }
  if (alarm.kind === 'budget') {
    const above = alarm.aboveOrBelow === 'ABOVE';
    const limit = above ? alarm.highThreshold : alarm.lowThreshold;
    return (
      `- Stability budget used up: ${formatDuration(alarm.duration)} ${above ? 'above' : 'below'} ` +
      `${temp(limit)} °C across the shipment's legs (at ${utc(alarm.startTime)})`
    );
  }
  const above = alarm.aboveOrBelow === 'ABOVE';
  const threshold = above ? alarm.highThreshold : alarm.lowThreshold;
  const extreme = above ? alarm.highestRecordedTemperature : alarm.lowestRecordedTemperature;
  const kind = alarm.kind === 'cumulative' ? 'Cumulative time' : 'Temperature';
  return (
    `- ${kind} ${above ? 'above' : 'below'} ${temp(threshold)} °C from ${utc(alarm.startTime)} ` +
    `to ${utc(alarm.endTime)} (${formatDuration(alarm.duration)}; ` +
    `${above ? 'highest' : 'lowest'} ${temp(extreme)} °C)`
  );
}

export function templateValues(
  app: FastifyInstance,
  event: AlarmMailEventRow,
  record: RecordRow,
  locations: Map<number, string>,
  alarms: readonly AlarmRow[],
): TemplateValues {
  const above = alarms.find((a) => a.aboveOrBelow === 'ABOVE');
  const threshold = above
    ? above.highThreshold
    : alarms.length > 0
      ? alarms[0]!.lowThreshold
      : record.highThreshold;
  const location = (id: number | null) => (id === null ? '-' : (locations.get(id) ?? '-'));
  return {
    record_id: String(record.id),
    serial_number: record.tagSerialNumber,
    product: text(record.productDesignation),
    carrier: text(record.carrier),
    primary_reference: text(record.primaryReference),
    shipping_reference: text(record.shippingReference),
    po_number: text(record.poNumber),
    origin: location(record.shipperLocationId),
    destination: location(record.receiverLocationId),
    notification_type: event.notificationType,
    highest: temp(record.highestRecordedTemperature),
    lowest: temp(record.lowestRecordedTemperature),
    threshold: temp(threshold),
    high_threshold: temp(record.highThreshold),
    low_threshold: temp(record.lowThreshold),
    trip_status: record.tripStatus,
    time: utc(event.occurredAt),
    alarms: alarms.map(describeAlarm).join('\n'),
    link: `${publicOrigin(app.config)}/recorddetails/${record.id}`,
  };
}
