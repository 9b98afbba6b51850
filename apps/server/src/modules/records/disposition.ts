import type { TDispositionFilter, TRecord, TSignatureMeaning } from '@coldtrace/contract';
import { sql, type SQL } from 'drizzle-orm';
import {
  recordDispositions,
  recordLatestDecisions,
  recordsAwaitingDecision,
} from '../../db/schema-review';
import { records } from '../../db/schema-shipments';

/**
 * The record's release decision as the record reply and the All Records
 * filter read it (issue 14 item 2, docs/decisions/disposition.md): the
 * latest row of `record_dispositions` for the record, in its organization.
 * The review module writes the rows; this is the records module's read.
 */

/** The latest decision's JSON (null: none), one index probe per record. */
export const latestDisposition = sql<DispositionJson | null>`(SELECT json_build_object('id', d.id::text, 'decision', d.decision, 'comment', d.comment, 'meaning', d.meaning, 'transit_reason', d.transit_reason, 'signed_by', d.printed_name, 'signed_at', d.signed_at, 'second_factor', d.second_factor)
  FROM ${recordDispositions} d
  WHERE d.organization_id = ${records.organizationId} AND d.record_id = ${records.id}
  ORDER BY d.id DESC LIMIT 1)`;

export interface DispositionJson {
  id: string;
  decision: 'RELEASED' | 'QUARANTINED' | 'REJECTED';
  comment: string;
  /** Written from the contract's enum by the review module. */
  meaning: TSignatureMeaning;
  transit_reason: string | null;
  signed_by: string;
  signed_at: string;
  /** Absent in rows read before issue 37 item 7. */
  second_factor?: 'totp' | 'recovery_code' | null;
}

/**
 * The All Records `disposition` parameter, for the organization's records: the
 * current decision is it (`record_latest_decisions`, migration 0027), or NONE
 * (`records_awaiting_decision`, migration 0026). Both kept tables, so the
 * filter costs the records it matches; the latest decision of every record
 * read one by one took 3.2 s for the 489 quarantined of 1,000,000 records
 * (list-performance.md, "Review filters").
 */
export function dispositionCondition(
  filter: TDispositionFilter | undefined,
  organizationId: string,
): SQL | undefined {
  if (filter === undefined) return undefined;
  if (filter === 'NONE') {
    return sql`${records.id} IN (SELECT w.record_id FROM ${recordsAwaitingDecision} w
      WHERE w.organization_id = ${organizationId})`;
  }
  return sql`${records.id} IN (SELECT l.record_id FROM ${recordLatestDecisions} l
    WHERE l.organization_id = ${organizationId} AND l.decision = ${filter})`;
}

export function presentDisposition(d: DispositionJson | null | undefined): TRecord['disposition'] {
  if (!d) return null;
  return {
    id: d.id,
    decision: d.decision,
    comment: d.comment,
    meaning: d.meaning,
    transit_reason: d.transit_reason ?? null,
    signed_by: d.signed_by,
    signed_at: new Date(d.signed_at).toISOString(),
    second_factor: d.second_factor ?? null,
  };
}
