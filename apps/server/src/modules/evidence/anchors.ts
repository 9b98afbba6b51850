import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { evidenceAnchors } from '../../db/schema-evidence';
import { sha256Hex } from './chain';
import { signText, type SigningKey } from './signing-key';

/**
 * Anchoring the evidence chain (docs/decisions/evidence-chain.md): the heads
 * (number and hash) of the organization's chains that grew since its last
 * anchor, linked to that anchor by its hash and signed with the server's key.
 * Costs the chains that grew, not the organization's history.
 */

/** A transaction that began before the last anchor may commit entries after it: look this far back. */
export const ANCHOR_OVERLAP_MS = 60 * 60_000;

export interface AnchorPayload {
  organization_id: string;
  anchored_at: string;
  /** SHA-256 (hex) of the previous anchor's payload; '' for the first. */
  previous: string;
  /** [chain, seq, hash hex] of each chain that grew. */
  heads: [string, number, string][];
}

export async function lastAnchor(db: Db, organizationId: string) {
  const { rows } = await db.execute<{ payload: string; anchored_at: Date }>(
    sql`SELECT payload, anchored_at FROM evidence_anchors
         WHERE organization_id = ${organizationId} ORDER BY id DESC LIMIT 1`,
  );
  return rows[0];
}

/**
 * Anchors one organization, if a chain of it grew since its last anchor
 * (in the caller's transaction). Returns the payload written, or null.
 */
export async function anchorOrganization(
  db: Db,
  organizationId: string,
  key: SigningKey,
  now = new Date(),
): Promise<AnchorPayload | null> {
  const previous = await lastAnchor(db, organizationId);
  const since = previous
    ? new Date(new Date(previous.anchored_at).getTime() - ANCHOR_OVERLAP_MS)
    : new Date(0);
  const { rows } = await db.execute<{ chain: string; seq: string; hash: string }>(
    sql`SELECT e.chain, e.seq, encode(e.hash, 'hex') AS hash
          FROM (SELECT chain, max(seq) AS seq FROM evidence_chain
                 WHERE organization_id = ${organizationId} AND occurred_at >= ${since}
                 GROUP BY chain) g
          JOIN evidence_chain e ON e.chain = g.chain AND e.seq = g.seq
         ORDER BY e.chain`,
  );
  const heads = rows.map((r) => [r.chain, Number(r.seq), r.hash] as [string, number, string]);
  const previousHash = previous ? sha256Hex(previous.payload) : '';
  if (previous && unchanged(previous.payload, heads)) return null;
  if (heads.length === 0) return null;
  const payload: AnchorPayload = {
    organization_id: organizationId,
    anchored_at: now.toISOString(),
    previous: previousHash,
    heads,
  };
  const text = JSON.stringify(payload);
  await db.insert(evidenceAnchors).values({
    organizationId,
    anchoredAt: now,
    payload: text,
    publicKey: key.publicKey,
    signature: signText(key, text),
  });
  return payload;
}

/** The heads are those the last anchor already holds (nothing grew since). */
function unchanged(previousPayload: string, heads: [string, number, string][]): boolean {
  const anchored = new Map(
    (JSON.parse(previousPayload) as AnchorPayload).heads.map(([c, s]) => [c, s]),
  );
  return heads.every(([chain, seq]) => anchored.get(chain) === seq);
}

/** Every organization whose chains grew since its last anchor (the hourly job). */
export async function anchorAll(db: Db, key: SigningKey, now = new Date()): Promise<number> {
  const { rows } = await db.execute<{ id: string }>(sql`SELECT id::text FROM organizations`);
  let anchored = 0;
  for (const { id } of rows) {
    if (await anchorOrganization(db, id, key, now)) anchored += 1;
  }
  return anchored;
}

export interface StoredAnchor {
  id: string;
  payload: string;
  public_key: string;
  signature: string;
}

/** The organization's latest anchor that signed a head of `chain` (a dossier carries it), or null. */
export async function lastAnchorNaming(
  db: Db,
  organizationId: string,
  chain: string,
): Promise<StoredAnchor | null> {
  const { rows } = await db.execute<StoredAnchor & Record<string, unknown>>(
    sql`SELECT id::text, payload, public_key, signature FROM evidence_anchors
         WHERE organization_id = ${organizationId}
           AND payload::jsonb -> 'heads' @> jsonb_build_array(jsonb_build_array(${chain}::text))
         ORDER BY id DESC LIMIT 1`,
  );
  return rows[0] ?? null;
}
