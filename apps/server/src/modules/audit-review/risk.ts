import {
  AUDIT_REVIEW_REASONS,
  type TAuditReviewReason,
  type TAuditReviewRisk,
} from '@coldtrace/contract';

/**
 * How the audit-trail review ranks an entry (issue 37 item 6;
 * docs/decisions/audit-review.md). Pure: the facts about the entry come from
 * the repository, read in the same query as the entry.
 */

export interface EntryFacts {
  id: number;
  action: string;
  entityType: string;
  field: string | null;
  occurredAt: Date;
  /** null: written by the system (an upload, a job). */
  actorUserId: string | null;
  /** The id of the record's first release entry (`record.disposition` RELEASED), if any. */
  firstReleaseEventId: number | null;
  /** When the record's trip or run ended (null: not yet, or no record). */
  recordEndedAt: Date | null;
  /** Whether the entry is about a record (record_id set). */
  aboutRecord: boolean;
  /** The actor's time zone (IANA), for working hours; UTC when unknown. */
  actorTimeZone: string;
}

/** Shipment fields whose change alters what counts as an excursion or the budget. */
export const LIMIT_FIELDS: ReadonlySet<string> = new Set([
  'high_threshold',
  'low_threshold',
  'cumulative_high_threshold',
  'cumulative_low_threshold',
  'cumulative_duration_high',
  'cumulative_duration_low',
  'num_consecutive_excursions',
  'product',
  'product_designation',
]);

const FAILED_SIGNATURE_ACTIONS: ReadonlySet<string> = new Set([
  'signature.failure',
  'second_factor.failure',
  'second_factor.locked',
]);

/** Who may do what, and how they prove it: roles, memberships, locks, second factors, what data is hidden. */
const ACCESS_ACTION = new RegExp(
  '^(user\\.(role|member\\.add|lock|unlock|suspend|reactivate|invite)|api_key\\.|role\\.|' +
    'display_rule\\.|second_factor\\.(disable|reset)|second_factor_for_signers\\.)',
);

/** Work on shipments goes on around the clock; the rest is administration. */
const SHIPMENT_ENTITIES: ReadonlySet<string> = new Set(['record', 'alarm', 'tag', 'scan']);

/** Working hours: Monday to Friday, 07:00 to 19:00 in the actor's time zone. */
export const WORKING_HOURS = { from: 7, to: 19 } as const;

const weekdayHour = new Map<string, Intl.DateTimeFormat>();
function localWeekdayAndHour(at: Date, timeZone: string): { weekday: string; hour: number } {
  let format = weekdayHour.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        weekday: 'short',
        hour: 'numeric',
        hourCycle: 'h23',
      });
    } catch {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: 'UTC',
        weekday: 'short',
        hour: 'numeric',
        hourCycle: 'h23',
      });
    }
    weekdayHour.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  return {
    weekday: parts.find((p) => p.type === 'weekday')!.value,
    hour: Number(parts.find((p) => p.type === 'hour')!.value),
  };
}

export function isOffHours(at: Date, timeZone: string): boolean {
  const { weekday, hour } = localWeekdayAndHour(at, timeZone);
  return (
    weekday === 'Sat' || weekday === 'Sun' || hour < WORKING_HOURS.from || hour >= WORKING_HOURS.to
  );
}

/** The reasons an entry deserves a reviewer's attention, in the catalogue's order. */
export function reasonsOf(e: EntryFacts): TAuditReviewReason[] {
  const reasons: TAuditReviewReason[] = [];
  if (e.aboutRecord && e.firstReleaseEventId !== null && e.id > e.firstReleaseEventId) {
    reasons.push('after_release');
  }
  if (
    e.action === 'record.shipment.update' &&
    e.field !== null &&
    LIMIT_FIELDS.has(e.field) &&
    (e.recordEndedAt === null || e.recordEndedAt > e.occurredAt)
  ) {
    reasons.push('limit_change_active');
  }
  if (FAILED_SIGNATURE_ACTIONS.has(e.action)) reasons.push('failed_signature');
  if (ACCESS_ACTION.test(e.action)) reasons.push('access_change');
  if (
    e.action === 'product.update' &&
    e.field !== null &&
    /threshold|budget|band|limit/.test(e.field)
  ) {
    reasons.push('product_limit_change');
  }
  if (
    e.actorUserId !== null &&
    !SHIPMENT_ENTITIES.has(e.entityType) &&
    isOffHours(e.occurredAt, e.actorTimeZone)
  ) {
    reasons.push('off_hours');
  }
  return reasons;
}

const RANK: Record<TAuditReviewRisk, number> = { high: 3, medium: 2, low: 1 };

/** The highest risk of the reasons; low without any. */
export function riskOf(reasons: readonly TAuditReviewReason[]): TAuditReviewRisk {
  let risk: TAuditReviewRisk = 'low';
  for (const r of reasons) {
    const candidate = AUDIT_REVIEW_REASONS[r].risk;
    if (RANK[candidate] > RANK[risk]) risk = candidate;
  }
  return risk;
}

/** Highest risk first, then newest first (by time, then by id). */
export function compareRanked(
  a: { risk: TAuditReviewRisk; occurredAt: Date; id: number },
  b: { risk: TAuditReviewRisk; occurredAt: Date; id: number },
): number {
  return (
    RANK[b.risk] - RANK[a.risk] || b.occurredAt.getTime() - a.occurredAt.getTime() || b.id - a.id
  );
}
