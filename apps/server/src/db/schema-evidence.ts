import {
  bigint,
  bigserial,
  customType,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { organizations } from './schema';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The evidence chain (issue 37 item 1; docs/decisions/evidence-chain.md): one
 * entry for every row of evidence written, changed or removed, linked by hash
 * to the entry before it in its chain, so that editing, deleting or reordering
 * any evidence row or any entry is found by `verifyEvidence`, even when it was
 * done as the database owner with the triggers switched off.
 *
 * Written only by the triggers of migration 0034 (a SECURITY DEFINER function
 * of the owner): the application role can read it and nothing else. Two kinds
 * of chain:
 * - `org:<uuid>`: the audit trail, signatures and release decisions of an
 *   organization, and one "chain opened" entry per record;
 * - `record:<id>`: a record's summary, its series chunks and every version of
 *   its alarms (written at ingest under the record's own lock, so chains of
 *   different records never wait for each other).
 */
export const evidenceChain = pgTable(
  'evidence_chain',
  {
    chain: text('chain').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** The organization the row belonged to when the entry was written. */
    organizationId: uuid('organization_id').notNull(),
    /** The table: audit_events, alarm_signatures, record_dispositions, records, record_series_chunks, alarms, or `chain` for a chain opened. */
    source: text('source').notNull(),
    /** The row's key in its table (`<record_id>/<chunk_no>` for a chunk). */
    rowKey: text('row_key').notNull(),
    /** I (written), U (changed) or D (removed). */
    op: text('op', { enum: ['I', 'U', 'D'] }).notNull(),
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
    /** Version of the row content hashed (`evidence_content` in migration 0034). */
    contentVersion: smallint('content_version').notNull(),
    /** SHA-256 of the row content after the change; null for a removal. */
    digest: bytea('digest'),
    /** The row content itself, for the sources whose versions are kept (alarms). */
    content: jsonb('content'),
    /** SHA-256 of the previous entry's hash and this entry's fields (`entryHash`). */
    hash: bytea('hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chain, t.seq] }),
    index('evidence_chain_row_idx').on(t.source, t.rowKey, t.chain, t.seq),
    // The chains of an organization, and those that grew since its last anchor.
    index('evidence_chain_org_time_idx').on(t.organizationId, t.occurredAt, t.chain),
  ],
);

/**
 * Anchors (docs/decisions/evidence-chain.md): every hour, the heads of the
 * organization's chains that grew since its last anchor, linked to that
 * anchor and signed with the server's Ed25519 key (derived from SECRET_KEY,
 * which the database does not hold). Entries removed from the end of a chain,
 * or a chain rewritten whole, no longer match an anchor. Append-only.
 */
export const evidenceAnchors = pgTable(
  'evidence_anchors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    anchoredAt: timestamptz('anchored_at').notNull(),
    /** The signed text: JSON of the organization, the time, the previous anchor's hash and the heads. */
    payload: text('payload').notNull(),
    /** The signing key (SPKI DER, base64) and the Ed25519 signature of `payload` (base64). */
    publicKey: text('public_key').notNull(),
    signature: text('signature').notNull(),
  },
  (t) => [index('evidence_anchors_org_idx').on(t.organizationId, t.id)],
);

export type EvidenceAnchorRow = typeof evidenceAnchors.$inferSelect;
export type EvidenceChainRow = typeof evidenceChain.$inferSelect;
