import type { TDispositionFilter, TRecord, TSignatureMeaning } from '@coldtrace/contract';
import { sql, type SQL } from 'drizzle-orm';
import { recordDispositions } from '../../db/schema-review';
import { records } from '../../db/schema-shipments';

/**
 * The record's release decision as the record reply and the All Records
 * filter read it (issue 14 item 2, docs/decisions/disposition.md): the
 * latest row of `record_dispositions` for the record, in its organization.
 * The review module writes the rows; this is the records module's read.
 */

/** The latest decision's JSON (null: none), one index probe per record. */
export const latestDisposition = sql<DispositionJson | null>`(SELECT json_build_object('id', d.id::text, 'decision', d.decision, 'comment', d.comment, 'meaning', d.meaning, 'signed_by', d.printed_name, 'signed_at', d.signed_at)
  FROM ${recordDispositions} d
  WHERE d.organization_id = ${records.organizationId} AND d.record_id = ${records.id}
  ORDER BY d.id DESC LIMIT 1)`;

export interface DispositionJson {
  id: string;
  decision: 'RELEASED' | 'QUARANTINED' | 'REJECTED';
  comment: string;
  /** Written from the contract's enum by the review module. */
  meaning: TSignatureMeaning;
  signed_by: string;
  signed_at: string;
}

/** The All Records `disposition` parameter: the current decision is it, or NONE. */
export function dispositionCondition(filter: TDispositionFilter | undefined): SQL | undefined {
  if (filter === undefined) return undefined;
  const any = sql`EXISTS (SELECT 1 FROM ${recordDispositions} d WHERE d.organization_id = ${records.organizationId} AND d.record_id = ${records.id})`;
  if (filter === 'NONE') return sql`NOT ${any}`;
  return sql`(SELECT d.decision FROM ${recordDispositions} d WHERE d.organization_id = ${records.organizationId} AND d.record_id = ${records.id} ORDER BY d.id DESC LIMIT 1) = ${filter}`;
}

export function presentDisposition(d: DispositionJson | null | undefined): TRecord['disposition'] {
  if (!d) return null;
  return {
    id: d.id,
    decision: d.decision,
    comment: d.comment,
    meaning: d.meaning,
    signed_by: d.signed_by,
    signed_at: new Date(d.signed_at).toISOString(),
  };
}
