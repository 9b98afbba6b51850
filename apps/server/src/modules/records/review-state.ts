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
import { keptCountSumOf, organizationCounts } from './kept-counts';

/**
 * The record's review state (issue 14 item 1, docs/decisions/review-queue.md),
 * computed from its alarms and its release decision, never stored: a latest
 * decision that holds the goods (QUARANTINED, REJECTED) is the state whatever
 * the alarms (issue 35: the review-state filters agree with the decision
 * filter); otherwise AWAITING_ACKNOWLEDGEMENT while any alarm (open or closed)
 * is neither acknowledged nor dismissed (a release given a later alarm too);
 * otherwise the latest decision, or AWAITING_DECISION when there is none.
 */

/** The decisions that are the record's state whatever its alarms: the goods are held or refused. */
export const HOLDING_DECISIONS = [
  'QUARANTINED',
  'REJECTED',
] as const satisfies readonly TDispositionDecision[];

const isHolding = (d: TDispositionDecision | null | undefined) =>
  HOLDING_DECISIONS.some((h) => h === d);

/** The record's latest decision holds the goods (record_latest_decisions' primary key, one probe). */
const heldByDecision = sql`EXISTS (SELECT 1 FROM ${recordLatestDecisions} h
    WHERE h.organization_id = ${records.organizationId} AND h.record_id = ${records.id}
      AND h.decision IN ('QUARANTINED', 'REJECTED'))`;

/** Some alarm of the record still needs a signature (as the release refusal counts them). */
const awaitsAcknowledgement = sql`EXISTS (SELECT 1 FROM ${alarms} a
  WHERE a.organization_id = ${records.organizationId} AND a.record_id = ${records.id}
    AND NOT a.acknowledged AND NOT a.dismissed AND a.superseded_by IS NULL)`;

/**
 * The same test for one record as one index probe (alarms_record_idx), for the
 * record views: a scalar subquery is run per row, where PostgreSQL may answer
 * the EXISTS by hashing every unacknowledged alarm of the organization once
 * per statement, so a page of 20 records cost what the organization's open
 * alarms cost (0.5 ms a page with 2,300 no-data alarms; list-performance.md,
 * "Record view"). Null when there is none.
 */
export const alarmAwaitsAcknowledgementOfRow = sql<boolean | null>`(SELECT true FROM ${alarms} a
  WHERE a.record_id = ${records.id} AND a.organization_id = ${records.organizationId}
    AND NOT a.acknowledged AND NOT a.dismissed AND a.superseded_by IS NULL LIMIT 1)`;

/**
 * The state of a record view from that test and the record's latest decision
 * (the view's `latestDisposition`): the rule above. Computed here rather than
 * by a CASE in the select, which looked the latest decision up a second time
 * (list-performance.md, "Record view").
 */
export function reviewStateOf(
  alarmAwaitsAcknowledgement: boolean | null,
  latestDecision: TDispositionDecision | null | undefined,
): TReviewState {
  if (latestDecision && isHolding(latestDecision)) return latestDecision;
  if (alarmAwaitsAcknowledgement) return 'AWAITING_ACKNOWLEDGEMENT';
  return latestDecision ?? 'AWAITING_DECISION';
}

/**
 * The records of the organization awaiting a decision, as a subquery of record
 * ids: the rows of `records_awaiting_decision`, kept by triggers (migration
 * 0026), so the filters below cost the records they match. `NOT EXISTS (a
 * decision)` read every record of the organization (2.8 s at 1,000,000
 * records; list-performance.md, "Review filters").
 */
const awaitingDecisionIds = (organizationId: string) =>
  sql`SELECT w.record_id FROM ${recordsAwaitingDecision} w WHERE w.organization_id = ${organizationId}`;

/** The records with an alarm neither acknowledged nor dismissed (alarms_org_unacknowledged_idx). */
const awaitingAcknowledgementIds = (organizationId: string) =>
  sql`SELECT a.record_id FROM ${alarms} a
    WHERE a.organization_id = ${organizationId} AND NOT a.acknowledged AND NOT a.dismissed AND a.superseded_by IS NULL`;

/** Those of them not held by their latest decision (whose state that decision is). */
const awaitingAcknowledgementStateIds = (organizationId: string) =>
  sql`SELECT a.record_id FROM ${alarms} a
    WHERE a.organization_id = ${organizationId} AND NOT a.acknowledged AND NOT a.dismissed AND a.superseded_by IS NULL
      AND NOT EXISTS (SELECT 1 FROM ${recordLatestDecisions} h
        WHERE h.organization_id = ${organizationId} AND h.record_id = a.record_id
          AND h.decision IN ('QUARANTINED', 'REJECTED'))`;

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
      return sql`(${awaitsAcknowledgement} AND NOT ${heldByDecision})`;
    case 'AWAITING_DECISION':
      return sql`(${records.id} IN (${awaitingDecisionIds(organizationId)}) AND NOT ${awaitsAcknowledgement})`;
    case 'NEEDS_REVIEW':
      // One list of ids (both sets are small next to the organization's
      // records), so PostgreSQL reads those records by id; an OR of the two
      // tests made it test every record.
      return sql`${records.id} IN (${awaitingDecisionIds(organizationId)}
        UNION ALL ${awaitingAcknowledgementStateIds(organizationId)})`;
    default: {
      // The records whose latest decision is this one (record_latest_decisions, migration 0027);
      // a release only without an alarm awaiting acknowledgement (a holding decision whatever).
      const decided = sql`${records.id} IN (SELECT l.record_id FROM ${recordLatestDecisions} l
        WHERE l.organization_id = ${organizationId} AND l.decision = ${filter})`;
      return isHolding(filter) ? decided : sql`(${decided} AND NOT ${awaitsAcknowledgement})`;
    }
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
 * for the review state of a release less those of them with an alarm awaiting
 * acknowledgement (whose state that is instead; a few next to the decided
 * records; a holding decision is its records' state whatever their alarms). The same number as counting the matches, without reading them. A
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
  if (filter.disposition || isHolding(decision)) return decided;
  return sql<number>`(${decided}
    - (SELECT count(*) FROM ${recordLatestDecisions} l
      WHERE l.organization_id = ${organizationId} AND l.decision = ${decision}
        AND l.record_id IN (${awaitingAcknowledgementIds(organizationId)})
        AND EXISTS (SELECT 1 FROM ${records} r WHERE r.id = l.record_id AND r.organization_id = ${organizationId}))
    )::int`;
}
