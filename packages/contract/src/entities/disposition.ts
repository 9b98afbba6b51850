import { z } from 'zod';
import { ZSignatureMeaning, type TSignatureMeaning } from './alarms';
import { ZSecondFactorKind } from './second-factor';
import type { TTripStatus } from '../enums';

/**
 * The release decision of a record (issue 14 item 2; ours, beyond the spec):
 * whether the goods of the shipment may be used. Signed like an alarm
 * acknowledgement (password and meaning). Decisions: docs/decisions/disposition.md.
 */
export const DISPOSITION_DECISIONS = ['RELEASED', 'QUARANTINED', 'REJECTED'] as const;
export const ZDispositionDecision = z.enum(DISPOSITION_DECISIONS);
export type TDispositionDecision = z.infer<typeof ZDispositionDecision>;

/** How the web app and the reports name a decision. */
export const DISPOSITION_DECISION_LABELS: Readonly<Record<TDispositionDecision, string>> = {
  RELEASED: 'Released',
  QUARANTINED: 'Quarantined',
  REJECTED: 'Rejected',
};

/**
 * The meaning a decision is signed with (domain rules section 6): a release is
 * an approval, a rejection a rejection, a quarantine a review. The signer does
 * not choose it; an upload that names another is refused (400 naming `meaning`).
 */
export const DISPOSITION_MEANINGS: Readonly<Record<TDispositionDecision, TSignatureMeaning>> = {
  RELEASED: 'APPROVED',
  QUARANTINED: 'REVIEWED',
  REJECTED: 'REJECTED',
};

/** How the decision dialog states the meaning: "Signed as approval". */
export const DISPOSITION_MEANING_TEXT: Readonly<Record<TDispositionDecision, string>> = {
  RELEASED: 'Signed as approval',
  QUARANTINED: 'Signed as review',
  REJECTED: 'Signed as rejection',
};

/** Longest reason for a release in transit. */
export const TRANSIT_REASON_MAX_LENGTH = 2000;

/**
 * Whether the shipment's trip has ended (domain rules section 6): it arrived
 * (trip status ARRIVED), or the record was stopped (a stop action, or the tag's
 * next run ended it: the record is no longer active, or it has a stop time).
 * Until then a release needs the organization's `allow_release_in_transit` and a
 * `transit_reason`.
 */
export function tripHasEnded(
  tripStatus: TTripStatus | string | null | undefined,
  stopped: boolean,
): boolean {
  return tripStatus === 'ARRIVED' || stopped;
}

/** Why RELEASED is refused (409, naming `decision`) while the trip has not ended. */
export function inTransitReleaseMessage(allowed: boolean): string {
  return allowed
    ? 'The record is still in transit: give a reason for releasing it before its trip has ended (transit_reason).'
    : 'The record cannot be released while it is in transit: its trip has not ended (not arrived, and the record not stopped). Quarantine it, or wait for the trip to end.';
}

/** The All Records filter: a decision, or NONE for records without one. */
export const DISPOSITION_FILTERS = [...DISPOSITION_DECISIONS, 'NONE'] as const;
export const ZDispositionFilter = z.enum(DISPOSITION_FILTERS);
export type TDispositionFilter = z.infer<typeof ZDispositionFilter>;

/** One signed decision: the record's current one is its latest. */
export const ZRecordDisposition = z
  .object({
    id: z.string(),
    decision: ZDispositionDecision,
    comment: z.string(),
    meaning: ZSignatureMeaning,
    /** Why a release was signed before the trip ended (null: the trip had ended, or not a release). */
    transit_reason: z
      .string()
      .nullable()
      .optional()
      .describe('Why it was released before its trip ended (null: it was not)'),
    /** The signer's printed name (first and last name, else the username). */
    signed_by: z.string(),
    signed_at: z.string().describe('When it was signed (server time, ISO 8601 UTC)'),
    second_factor: ZSecondFactorKind.nullable()
      .optional()
      .describe('The second factor given with the password (null: the password alone)'),
  })
  .meta({ id: 'RecordDisposition' });
export type TRecordDisposition = z.infer<typeof ZRecordDisposition>;

/**
 * Why RELEASED is refused (409, naming `decision`) while `n` alarms of the
 * record are neither acknowledged nor dismissed: the server's message, which
 * the web app shows before sending.
 */
export function unacknowledgedReleaseMessage(n: number): string {
  const alarms = n === 1 ? '1 alarm is' : `${n} alarms are`;
  return `The record cannot be released: ${alarms} not acknowledged. Acknowledge them first, or quarantine or reject it.`;
}
