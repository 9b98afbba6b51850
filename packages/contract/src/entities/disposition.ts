import { z } from 'zod';
import { ZSignatureMeaning } from './alarms';

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
    /** The signer's printed name (first and last name, else the username). */
    signed_by: z.string(),
    signed_at: z.string().describe('When it was signed (server time, ISO 8601 UTC)'),
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
