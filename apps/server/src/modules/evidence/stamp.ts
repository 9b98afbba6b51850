import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sha256Hex } from './chain';

/**
 * What a report prints of the evidence chain (docs/decisions/evidence-chain.md):
 * the record chain's last entry when the report was made, and the
 * organization's last signed anchor. Quoted outside the server, they let a
 * reader check later that the chain still holds that entry.
 */
export interface EvidenceStamp {
  chain: string;
  seq: number;
  /** SHA-256 of the entry (hex). */
  hash: string;
  anchor: { anchoredAt: Date; payloadSha256: string } | null;
}

export async function evidenceStamp(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<EvidenceStamp | null> {
  const chain = `record:${recordId}`;
  const head = await db.execute<{ seq: string; hash: string }>(
    sql`SELECT seq, encode(hash, 'hex') AS hash FROM evidence_chain
         WHERE chain = ${chain} ORDER BY seq DESC LIMIT 1`,
  );
  const entry = head.rows[0];
  if (!entry) return null;
  const anchor = await db.execute<{ payload: string; anchored_at: Date }>(
    sql`SELECT payload, anchored_at FROM evidence_anchors
         WHERE organization_id = ${organizationId} ORDER BY id DESC LIMIT 1`,
  );
  const last = anchor.rows[0];
  return {
    chain,
    seq: Number(entry.seq),
    hash: entry.hash,
    anchor: last
      ? { anchoredAt: new Date(last.anchored_at), payloadSha256: sha256Hex(last.payload) }
      : null,
  };
}
