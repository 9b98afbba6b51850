import { createHash } from 'node:crypto';
import type { TEvidenceProblem } from '@coldtrace/contract';

/**
 * The evidence chain's arithmetic, independent of the database that wrote it
 * (docs/decisions/evidence-chain.md): an entry's hash is SHA-256 of the
 * previous entry's hash (nothing for the first) followed by its fields joined
 * by newlines. Migration 0034's `evidence_append` computes the same.
 */

export interface ChainEntry {
  chain: string;
  seq: number;
  organizationId: string;
  source: string;
  rowKey: string;
  op: 'I' | 'U' | 'D';
  /** occurred_at in microseconds since 1970, as text (exact). */
  occurredMicros: string;
  contentVersion: number;
  /** SHA-256 of the row content, hex; null for a removal. */
  digestHex: string | null;
  /** The kept version of the row (alarms), as the database prints the jsonb. */
  contentText: string | null;
  hashHex: string;
}

export function entryHash(previousHashHex: string | null, entry: Omit<ChainEntry, 'hashHex'>) {
  const fields = [
    entry.chain,
    String(entry.seq),
    entry.organizationId,
    entry.source,
    entry.rowKey,
    entry.op,
    entry.occurredMicros,
    String(entry.contentVersion),
    entry.digestHex ?? '',
  ].join('\n');
  return createHash('sha256')
    .update(Buffer.from(previousHashHex ?? '', 'hex'))
    .update(fields, 'utf8')
    .digest('hex');
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The last entry of each row of a chain: what the row must be now. */
export interface RowState {
  chain: string;
  seq: number;
  op: 'I' | 'U' | 'D';
  digestHex: string | null;
}

export const rowId = (source: string, rowKey: string) => `${source}\u0000${rowKey}`;

export interface ChainWalk {
  entries: number;
  problems: TEvidenceProblem[];
  /** rowId(source, key) → its last entry. */
  rows: Map<string, RowState>;
}

/**
 * Walks one chain's entries in the order read (by number): each number follows
 * the one before, each hash is the hash of the entry and the one before, and a
 * kept version matches its digest. A break is named once: the entries after an
 * edited one are checked against the stored hash they follow, so one edit is
 * one problem, not the whole tail.
 */
export function walkChain(chain: string, entries: Iterable<ChainEntry>): ChainWalk {
  const problems: TEvidenceProblem[] = [];
  const rows = new Map<string, RowState>();
  let previous: ChainEntry | null = null;
  let count = 0;
  const problem = (
    kind: TEvidenceProblem['kind'],
    entry: ChainEntry | null,
    message: string,
    seq = entry?.seq ?? null,
  ) =>
    problems.push({
      kind,
      chain,
      seq,
      source: entry?.source ?? null,
      row_key: entry?.rowKey ?? null,
      message,
    });
  for (const entry of entries) {
    count += 1;
    const expectedSeq = (previous?.seq ?? 0) + 1;
    if (entry.seq !== expectedSeq) {
      problem(
        'entry_missing',
        entry,
        entry.seq > expectedSeq
          ? `entries ${expectedSeq}..${entry.seq - 1} of ${chain} are missing`
          : `entry ${entry.seq} of ${chain} is out of order`,
        expectedSeq,
      );
    } else if (entryHash(previous?.hashHex ?? null, entry) !== entry.hashHex) {
      problem('entry_edited', entry, `entry ${entry.seq} of ${chain} does not match its hash`);
    }
    if (entry.contentText !== null && sha256Hex(entry.contentText) !== entry.digestHex) {
      problem(
        'version_content_edited',
        entry,
        `the kept version in entry ${entry.seq} of ${chain} does not match its digest`,
      );
    }
    rows.set(rowId(entry.source, entry.rowKey), {
      chain,
      seq: entry.seq,
      op: entry.op,
      digestHex: entry.digestHex,
    });
    previous = entry;
  }
  return { entries: count, problems, rows };
}
