import type { TDegreesUnit } from '@coldtrace/contract';
import { auditActionLabel, auditChangeText } from '@coldtrace/domain';
import {
  formatWall,
  instantWriter,
  wallClock,
  type ReportAuditLine,
  type TimeStyle,
} from './report-model';

/**
 * One audit entry as every report format prints it (PDF, CSV, XLSX), with the
 * domain's audit display (packages/domain audit-display.ts, also used by the
 * record page's audit card) so the formats and the screen tell the same story.
 */
export interface AuditDisplay {
  when: string;
  who: string;
  what: string;
  /** `High threshold: 46.4 °F → 48.2 °F`, or the value of an entry without a field. */
  change: string;
  reason: string;
}

/**
 * A function that turns an audit entry into display text for one report
 * (the zone's offsets are looked up once for all entries). With a `style`,
 * times carry their offset as every report writes them; without one they are
 * the zone's wall clock alone (the audit API's CSV, which has a UTC column).
 */
export function auditDisplayer(options: {
  unit: TDegreesUnit;
  timeZone: string;
  style?: TimeStyle;
}): (e: ReportAuditLine) => AuditDisplay {
  const wall = wallClock(options.timeZone);
  const formatInstant =
    options.style === undefined
      ? (ms: number) => formatWall(wall(ms))
      : instantWriter(options.timeZone, options.style);
  const opts = { unit: options.unit, timeZone: options.timeZone, formatInstant };
  return (e) => ({
    when: formatInstant(e.occurredAt.getTime()),
    who: e.actorName,
    // An alarm's entries name the alarm (`Alarm closed #12`), as the alarm list does.
    what:
      e.entityType === 'alarm' && e.entityId
        ? `${auditActionLabel(e.action)} #${e.entityId}`
        : auditActionLabel(e.action),
    change: auditChangeText(e, opts),
    reason: e.reason ?? '',
  });
}
