import {
  DISPOSITION_DECISIONS,
  type TDispositionDecision,
  type TDispositionFilter,
  type TReviewState,
  type TReviewStateFilter,
} from '@coldtrace/contract';
import { sql, type SQL } from 'drizzle-orm';
import { recordLatestDecisions, recordsAwaitingDecision } from '../../db/schema-review';
import { recordCountDeltas } from '../../db/schema-record-counts';
import { alarms, records } from '../../db/schema-shipments';
import type { Db } from '../../db/client';
import { keptCountSumOf, organizationCounts } from './statistics';

/**
 * The record's review state (issue 14 item 1, docs/decisions/review-queue.md),
 * computed from its alarms and its release decision, never stored:
 * AWAITING_ACKNOWLEDGEMENT while any alarm (open or closed) is neither
 * acknowledged nor dismissed, whatever the decision; otherwise the latest
 * decision, or AWAITING_DECISION when there is none (alarms or not).
 */

/** Some alarm of the record still needs a signature (as the release refusal counts them). */
const awaitsAcknowledgement = sql`EXISTS (SELECT 1 FROM ${alarms} a
  WHERE a.organization_id = ${records.organizationId} AND a.record_id = ${records.id}
    AND NOT a.acknowledged AND NOT a.dismissed)`;

/**
 * The same test for one record as one index probe (alarms_record_idx), for the
 * record views: a scalar subquery is run per row, where PostgreSQL may answer
 * the EXISTS by hashing every unacknowledged alarm of the organization once
 * per statement, so a page of 20 records cost what the organization's open
 * alarms cost (0.5 ms a page with 2,300 no-data alarms; list-performance.md,
 * "Sixth pass"). Null when there is none.
 */
export const alarmAwaitsAcknowledgementOfRow = sql<boolean | null>`(SELECT true FROM ${alarms} a
  WHERE a.record_id = ${records.id} AND a.organization_id = ${records.organizationId}
    AND NOT a.acknowledged AND NOT a.dismissed LIMIT 1)`;

/**
 * The state of a record view from that test and the record's latest decision
 * (the view's `latestDisposition`): the rule above. Computed here rather than
 * by a CASE in the select, which looked the latest decision up a second time
 * (list-performance.md, "Fifteenth pass").
 */
export function reviewStateOf(
  alarmAwaitsAcknowledgement: boolean | null,
  latestDecision: TDispositionDecision | null | undefined,
): TReviewState {
  if (alarmAwaitsAcknowledgement) return 'AWAITING_ACKNOWLEDGEMENT';
  return latestDecision ?? 'AWAITING_DECISION';
}

/**
 * The records of the organization awaiting a decision, as a subquery of record
 * ids: the rows of `records_awaiting_decision`, kept by triggers (migration
 * 0026), so the filters below cost the records they match. `NOT EXISTS (a
 * decision)` read every record of the organization (2.8 s at 1,000,000
 * records; list-performance.md, "Twelfth pass").
 */
const awaitingDecisionIds = (organizationId: string) =>
  sql`SELECT w.record_id FROM ${recordsAwaitingDecision} w WHERE w.organization_id = ${organizationId}`;

/** The records with an alarm neither acknowledged nor dismissed (alarms_org_unacknowledged_idx). */
const awaitingAcknowledgementIds = (organizationId: string) =>
  sql`SELECT a.record_id FROM ${alarms} a
    WHERE a.organization_id = ${organizationId} AND NOT a.acknowledged AND NOT a.dismissed`;

/**
 * The All Records `review_state` parameter, for the organization's records:
 * each state from a kept table (migrations 0026, 0027), so a filter costs the
 * records it matches.
 */
export function reviewStateCondition(
  filter: TReviewStateFilter | undefined,
  organizationId: string,
): SQL | undefined {
  if (filter === undefined) return undefined;
  switch (filter) {
    case 'AWAITING_ACKNOWLEDGEMENT':
      return awaitsAcknowledgement;
    case 'AWAITING_DECISION':
      return sql`(${records.id} IN (${awaitingDecisionIds(organizationId)}) AND NOT ${awaitsAcknowledgement})`;
    case 'NEEDS_REVIEW':
      // One list of ids (both sets are small next to the organization's
      // records), so PostgreSQL reads those records by id; an OR of the two
      // tests made it test every record.
      return sql`${records.id} IN (${awaitingDecisionIds(organizationId)}
        UNION ALL ${awaitingAcknowledgementIds(organizationId)})`;
    default:
      // The records whose latest decision is this one (record_latest_decisions, migration 0027).
      return sql`(${records.id} IN (SELECT l.record_id FROM ${recordLatestDecisions} l
        WHERE l.organization_id = ${organizationId} AND l.decision = ${filter})
        AND NOT ${awaitsAcknowledgement})`;
  }
}

/** Where each decision's kept count is (migration 0029): its column, and its `organizationCounts` key. */
const DECISION_COUNTS = {
  RELEASED: { column: recordCountDeltas.releasedRecords, key: 'releasedRecords' },
  QUARANTINED: { column: recordCountDeltas.quarantinedRecords, key: 'quarantinedRecords' },
  REJECTED: { column: recordCountDeltas.rejectedRecords, key: 'rejectedRecords' },
} as const satisfies Record<TDispositionDecision, unknown>;

const isDecision = (value: unknown): value is TDispositionDecision =>
  DISPOSITION_DECISIONS.some((d) => d === value);

/** Fewer matches than this are counted (reading them is cheap); more take the kept count. */
const BROAD_DECISION = 10_000;

/**
 * The total of a decision filter used alone (`disposition` other than NONE,
 * or a decision's `review_state`), from the kept counts, when the decision
 * is broad (more than BROAD_DECISION records: Released on a reviewed
 * organization): the kept count of the records whose latest decision it is,
 * for the review state less those of them with an alarm awaiting
 * acknowledgement (whose state that is instead; a few next to the decided
 * records). The same number as counting the matches, without reading them. A
 * rare decision is counted as before (undefined): its page then reads its few
 * matches by id, where a page read in the list's order until 20 match could
 * read the whole organization for them.
 */
export async function keptDecisionTotalOf(
  db: Db,
  filter: {
    disposition?: TDispositionFilter | undefined;
    review_state?: TReviewStateFilter | undefined;
  },
  organizationId: string,
): Promise<SQL<number> | undefined> {
  if (filter.disposition && filter.review_state) return undefined;
  const decision = filter.disposition ?? filter.review_state;
  if (!isDecision(decision)) return undefined;
  const counted = DECISION_COUNTS[decision];
  const counts = await organizationCounts(db, organizationId);
  if (counts[counted.key] <= BROAD_DECISION) return undefined;
  const decided = keptCountSumOf(organizationId, counted.column);
  if (filter.disposition) return decided;
  return sql<number>`(${decided}
    - (SELECT count(*) FROM ${recordLatestDecisions} l
      WHERE l.organization_id = ${organizationId} AND l.decision = ${decision}
        AND l.record_id IN (${awaitingAcknowledgementIds(organizationId)})
        AND EXISTS (SELECT 1 FROM ${records} r WHERE r.id = l.record_id AND r.organization_id = ${organizationId}))
    )::int`;
}
