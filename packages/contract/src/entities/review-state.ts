import { z } from 'zod';

/**
 * A record's review state (issue 14 item 1; ours, beyond the spec), computed
 * from its alarms and its release decision, never stored. Rules:
 * docs/decisions/review-queue.md.
 * - AWAITING_ACKNOWLEDGEMENT: some alarm is neither acknowledged nor dismissed
 *   (it wins over any decision: an alarm raised after a decision needs review).
 * - AWAITING_DECISION: no such alarm (or no alarm at all) and no decision yet.
 * - RELEASED, QUARANTINED, REJECTED: the latest signed decision.
 */
export const REVIEW_STATES = [
  'AWAITING_ACKNOWLEDGEMENT',
  'AWAITING_DECISION',
  'RELEASED',
  'QUARANTINED',
  'REJECTED',
] as const;
export const ZReviewState = z.enum(REVIEW_STATES);
export type TReviewState = z.infer<typeof ZReviewState>;

/** How the web app names a review state. */
export const REVIEW_STATE_LABELS: Readonly<Record<TReviewState, string>> = {
  AWAITING_ACKNOWLEDGEMENT: 'Awaiting acknowledgement',
  AWAITING_DECISION: 'Awaiting decision',
  RELEASED: 'Released',
  QUARANTINED: 'Quarantined',
  REJECTED: 'Rejected',
};

/**
 * The All Records `review_state` parameter: one state, or NEEDS_REVIEW
 * (awaiting acknowledgement or decision: the dashboard's Needs review card).
 */
export const REVIEW_STATE_FILTERS = [...REVIEW_STATES, 'NEEDS_REVIEW'] as const;
export const ZReviewStateFilter = z.enum(REVIEW_STATE_FILTERS);
export type TReviewStateFilter = z.infer<typeof ZReviewStateFilter>;
