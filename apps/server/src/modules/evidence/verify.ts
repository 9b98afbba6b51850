import type { TEvidenceProblem, TEvidenceVerification } from '@coldtrace/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AnchorPayload } from './anchors';
import { rowId, sha256Hex, walkChain, type ChainEntry, type RowState } from './chain';
import { signatureValid } from './signing-key';

/**
 * Verifying an organization's evidence (issue 37 item 1;
 * docs/decisions/evidence-chain.md): every chain with an entry of the
 * organization is walked entry by entry (`walkChain`), each record chain must
 * have been opened in the organization's chain, and every evidence row of the
 * organization is compared with its last chained version. Costs what the
 * organization has stored; meant for audits and the verification command.
 */

/** Most problems listed (the count is not capped: `verified` says whether there is any). */
export const MAX_PROBLEMS = 100;

type Source =
  | 'records'
  | 'record_series_chunks'
  | 'alarms'
  | 'alarm_signatures'
  | 'record_dispositions'
  | 'audit_events';

/** Each source's key and digest, as migration 0034's triggers compute them. */
const KEY: Record<Source, SQL> = {
  records: sql`t.id::text`,
  record_series_chunks: sql`t.record_id::text || '/' || t.chunk_no::text`,
  alarms: sql`t.id::text`,
  alarm_signatures: sql`t.id::text`,
  record_dispositions: sql`t.id::text`,
  audit_events: sql`t.id::text`,
};
const SOURCES = Object.keys(KEY) as Source[];

const currentRows = (source: Source, organizationId: string) =>
  sql`SELECT ${KEY[source]} AS key,
             encode(evidence_digest(evidence_content(t)), 'hex') AS digest
        FROM ${sql.identifier(source)} t
       WHERE t.organization_id = ${organizationId}`;

const existingKeys = (source: Source, keys: string[]) =>
  sql`SELECT ${KEY[source]} AS key FROM ${sql.identifier(source)} t
       WHERE ${KEY[source]} = ANY(${sql.param(keys)}::text[])`;

/** A row as it is hashed: its table, its key and `evidence_content(row)` as the database prints it. */
export interface EvidenceRow {
  source: Source;
  key: string;
  content: string;
}

/**
 * The current evidence rows of one record (a dossier's `evidence/rows.json`):
 * its summary, chunks, alarms, signatures, decisions and trail entries, each
 * with its content as the triggers hash it. Floats print as they do there
 * only with `extra_float_digits = 1` set in the caller's transaction.
 */
export async function recordEvidenceRows(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<EvidenceRow[]> {
  const parts = SOURCES.map(
    (source, order) =>
      sql`SELECT ${order} AS source_order, ${source}::text AS source, ${KEY[source]} AS key,
                 ${source === 'record_series_chunks' ? sql`t.chunk_no` : source === 'records' ? sql`0` : sql`t.id`}::bigint AS row_order,
                 evidence_content(t)::text AS content
            FROM ${sql.identifier(source)} t
           WHERE t.organization_id = ${organizationId}
             AND ${source === 'records' ? sql`t.id` : sql`t.record_id`} = ${recordId}`,
  );
  const { rows } = await db.execute<EvidenceRow & Record<string, unknown>>(
    sql`${sql.join(parts, sql` UNION ALL `)} ORDER BY source_order, row_order`,
  );
  return rows.map(({ source, key, content }) => ({ source, key, content }));
}

interface EntryRow extends Record<string, unknown> {
  seq: string;
  organization_id: string;
  source: string;
  row_key: string;
  op: 'I' | 'U' | 'D';
  micros: string;
  content_version: number;
  digest: string | null;
  content: string | null;
  hash: string;
}

/** A chain's entries, in order (also what a dossier carries of its record's chain). */
export async function readChain(db: Db, chain: string): Promise<ChainEntry[]> {
  const { rows } = await db.execute<EntryRow>(
    sql`SELECT seq, organization_id::text, source, row_key, op,
               ((extract(epoch FROM occurred_at) * 1000000)::bigint)::text AS micros,
               content_version, encode(digest, 'hex') AS digest, content::text AS content,
               encode(hash, 'hex') AS hash
          FROM evidence_chain WHERE chain = ${chain} ORDER BY seq`,
  );
  return rows.map((r) => ({
    chain,
    seq: Number(r.seq),
    organizationId: r.organization_id,
    source: r.source,
    rowKey: r.row_key,
    op: r.op,
    occurredMicros: r.micros,
    contentVersion: r.content_version,
    digestHex: r.digest,
    contentText: r.content,
    hashHex: r.hash,
  }));
}

/** The organization's chain and every chain holding one of its entries (record chains by number). */
async function chainsOf(db: Db, organizationId: string): Promise<string[]> {
  const { rows } = await db.execute<{ chain: string }>(
    sql`SELECT DISTINCT chain FROM evidence_chain WHERE organization_id = ${organizationId}`,
  );
  const orgChain = `org:${organizationId}`;
  const records = rows
    .map((r) => r.chain)
    .filter((c) => c !== orgChain)
    .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
  return [orgChain, ...records];
}

/**
 * One snapshot (repeatable read, read only), so that a row changed while the
 * verification runs is compared with the chain as it was when it began; floats
 * printed as the triggers print them.
 */
export interface VerifyOptions {
  /** Public keys (SPKI base64) whose anchors are this server's: its own signing key. */
  trustedKeys: readonly string[];
  now?: Date;
}

export async function verifyEvidence(
  db: Db,
  organizationId: string,
  options: VerifyOptions,
): Promise<TEvidenceVerification> {
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`SET LOCAL extra_float_digits = 1`);
      return verifyIn(tx, organizationId, options);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

interface AnchoredHead {
  anchorId: string;
  seq: number;
  hash: string;
}

/** The organization's anchors, in order: signature, key and link of each; the heads they signed. */
async function readAnchors(db: Db, organizationId: string, trusted: readonly string[]) {
  const { rows } = await db.execute<{
    id: string;
    payload: string;
    public_key: string;
    signature: string;
  }>(
    sql`SELECT id::text, payload, public_key, signature FROM evidence_anchors
         WHERE organization_id = ${organizationId} ORDER BY id`,
  );
  const problems: TEvidenceProblem[] = [];
  const heads = new Map<string, AnchoredHead[]>();
  const anchorProblem = (kind: TEvidenceProblem['kind'], message: string) =>
    problems.push({
      kind,
      chain: null,
      seq: null,
      source: 'evidence_anchors',
      row_key: null,
      message,
    });
  let previous = '';
  for (const row of rows) {
    const name = `anchor ${row.id}`;
    if (!signatureValid(row.public_key, row.payload, row.signature)) {
      anchorProblem('anchor_invalid', `${name}: its signature does not match its content`);
    } else if (!trusted.includes(row.public_key)) {
      anchorProblem('anchor_unknown_key', `${name} is signed with a key that is not this server's`);
    }
    let payload: AnchorPayload | null = null;
    try {
      payload = JSON.parse(row.payload) as AnchorPayload;
    } catch {
      anchorProblem('anchor_invalid', `${name}: its content is not an anchor`);
    }
    if (payload && (payload.organization_id !== organizationId || payload.previous !== previous)) {
      anchorProblem('anchor_invalid', `${name} does not follow the anchor before it`);
    }
    previous = sha256Hex(row.payload);
    for (const [chain, seq, hash] of payload?.heads ?? []) {
      heads.set(chain, [...(heads.get(chain) ?? []), { anchorId: row.id, seq, hash }]);
    }
  }
  return { count: rows.length, problems, heads, lastPayload: rows.at(-1)?.payload ?? null };
}

/** Each anchored head of `chain` must still be its entry of that number, with that hash. */
function anchoredHeadProblems(
  chain: string,
  entries: readonly ChainEntry[],
  heads: readonly AnchoredHead[],
): TEvidenceProblem[] {
  const bySeq = new Map(entries.map((e) => [e.seq, e.hashHex]));
  return heads
    .filter((h) => bySeq.get(h.seq) !== h.hash)
    .map((h) => ({
      kind: 'anchor_head_missing' as const,
      chain,
      seq: h.seq,
      source: null,
      row_key: null,
      message: bySeq.has(h.seq)
        ? `entry ${h.seq} of ${chain} is not the one anchor ${h.anchorId} signed`
        : `entry ${h.seq} of ${chain}, signed by anchor ${h.anchorId}, is gone`,
    }));
}

type Anchors = Awaited<ReturnType<typeof readAnchors>>;

/**
 * Every chain of the organization walked: its entries, the rows' last states,
 * the problems of each chain (in order) and the record chains the organization's
 * chain opened.
 */
async function walkChains(db: Db, organizationId: string, anchors: Anchors) {
  const problems: TEvidenceProblem[] = [];
  const rows = new Map<string, RowState>();
  const opened = new Set<string>();
  let entries = 0;
  const chains = await chainsOf(db, organizationId);
  for (const chain of chains) {
    const read = await readChain(db, chain);
    const walk = walkChain(chain, read);
    entries += walk.entries;
    problems.push(...walk.problems);
    problems.push(...anchoredHeadProblems(chain, read, anchors.heads.get(chain) ?? []));
    for (const [id, state] of walk.rows) rows.set(id, state);
    if (chain.startsWith('org:')) {
      for (const e of read) if (e.source === 'chain') opened.add(e.rowKey);
    } else if (!opened.has(chain) && !(await openedElsewhere(db, chain))) {
      problems.push({
        kind: 'chain_unopened',
        chain,
        seq: null,
        source: null,
        row_key: null,
        message: `${chain} was never opened in its organization's chain`,
      });
    }
  }
  return { chains, entries, rows, opened, problems };
}

/** Chains an anchor signed or the organization's chain opened that have no entry left. */
function missingChainProblems(
  walked: ReadonlySet<string>,
  anchors: Anchors,
  opened: ReadonlySet<string>,
): TEvidenceProblem[] {
  const problems: TEvidenceProblem[] = [];
  for (const [chain, heads] of anchors.heads) {
    if (!walked.has(chain)) problems.push(...anchoredHeadProblems(chain, [], heads));
  }
  for (const chain of [...opened].sort()) {
    if (walked.has(chain)) continue;
    problems.push({
      kind: 'entry_missing',
      chain,
      seq: null,
      source: null,
      row_key: null,
      message: `${chain} was opened in the organization's chain but has no entry left`,
    });
  }
  return problems;
}

/** Each current row of every source against its last state in the chains: untracked or edited. */
async function compareRows(db: Db, organizationId: string, rows: ReadonlyMap<string, RowState>) {
  const problems: TEvidenceProblem[] = [];
  let compared = 0;
  const seen = new Set<string>();
  for (const source of SOURCES) {
    const current = await db.execute<{ key: string; digest: string }>(
      currentRows(source, organizationId),
    );
    for (const row of current.rows) {
      compared += 1;
      const id = rowId(source, row.key);
      seen.add(id);
      const state = rows.get(id) ?? (await lastEntryElsewhere(db, source, row.key));
      const base = { source, row_key: row.key };
      if (!state || state.op === 'D') {
        problems.push({
          kind: 'row_untracked',
          chain: state?.chain ?? null,
          seq: state?.seq ?? null,
          ...base,
          message: `${source} ${row.key} is in no chain${state ? ' as it is now' : ''}`,
        });
      } else if (state.digestHex !== row.digest) {
        problems.push({
          kind: 'row_edited',
          chain: state.chain,
          seq: state.seq,
          ...base,
          message: `${source} ${row.key} differs from its version in entry ${state.seq} of ${state.chain}`,
        });
      }
    }
  }
  return { compared, seen, problems };
}

async function verifyIn(
  db: Db,
  organizationId: string,
  { trustedKeys, now = new Date() }: VerifyOptions,
): Promise<TEvidenceVerification> {
  const anchors = await readAnchors(db, organizationId, trustedKeys);
  const walked = await walkChains(db, organizationId, anchors);
  const { chains, entries, rows, opened } = walked;
  const compared = await compareRows(db, organizationId, rows);
  const problems: TEvidenceProblem[] = [
    ...anchors.problems,
    ...walked.problems,
    ...missingChainProblems(new Set(chains), anchors, opened),
    ...compared.problems,
    ...(await removedRows(db, rows, compared.seen)),
  ];

  return {
    verified: problems.length === 0,
    checked_at: now.toISOString(),
    chains: chains.length,
    entries,
    rows: compared.compared,
    anchors: anchors.count,
    last_anchor: anchors.lastPayload
      ? {
          anchored_at: (JSON.parse(anchors.lastPayload) as AnchorPayload).anchored_at,
          payload_sha256: sha256Hex(anchors.lastPayload),
        }
      : null,
    first_break: problems[0] ?? null,
    problems: problems.slice(0, MAX_PROBLEMS),
  };
}

/** A record chain opened in another organization's chain (the record has moved since). */
async function openedElsewhere(db: Db, chain: string): Promise<boolean> {
  const { rows } = await db.execute(
    sql`SELECT 1 FROM evidence_chain WHERE source = 'chain' AND row_key = ${chain} LIMIT 1`,
  );
  return rows.length > 0;
}

/** A row's last entry in a chain this organization has no entry in (a record moved to it). */
async function lastEntryElsewhere(
  db: Db,
  source: Source,
  key: string,
): Promise<RowState | undefined> {
  const { rows } = await db.execute<{
    chain: string;
    seq: string;
    op: 'I' | 'U' | 'D';
    digest: string | null;
  }>(
    sql`SELECT chain, seq, op, encode(digest, 'hex') AS digest FROM evidence_chain
         WHERE source = ${source} AND row_key = ${key} ORDER BY seq DESC LIMIT 1`,
  );
  const r = rows[0];
  return r && { chain: r.chain, seq: Number(r.seq), op: r.op, digestHex: r.digest };
}

/** Rows the chains say exist (last entry not a removal) that are in no table, of any organization. */
async function removedRows(
  db: Db,
  rows: Map<string, RowState>,
  seen: Set<string>,
): Promise<TEvidenceProblem[]> {
  const missing = new Map<Source, string[]>();
  for (const [id, state] of rows) {
    if (state.op === 'D' || seen.has(id)) continue;
    const [source, key] = id.split('\u0000') as [Source, string];
    if (!SOURCES.includes(source)) continue;
    const keys = missing.get(source) ?? [];
    keys.push(key);
    missing.set(source, keys);
  }
  const problems: TEvidenceProblem[] = [];
  for (const [source, keys] of missing) {
    const found = await db.execute<{ key: string }>(existingKeys(source, keys));
    const elsewhere = new Set(found.rows.map((r) => r.key));
    for (const key of keys) {
      if (elsewhere.has(key)) continue;
      const state = rows.get(rowId(source, key))!;
      problems.push({
        kind: 'row_removed',
        chain: state.chain,
        seq: state.seq,
        source,
        row_key: key,
        message: `${source} ${key} is gone, but entry ${state.seq} of ${state.chain} says it exists`,
      });
    }
  }
  return problems;
}
