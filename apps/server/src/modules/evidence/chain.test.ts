import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryHash, sha256Hex, walkChain, type ChainEntry } from './chain';

/** A well-formed chain of `n` entries built with the same arithmetic as the database. */
function chainOf(
  fields: { source: string; rowKey: string; op: 'I' | 'U' | 'D'; content: string | null }[],
): ChainEntry[] {
  const out: ChainEntry[] = [];
  fields.forEach((f, i) => {
    const digestHex = f.op === 'D' ? null : sha256Hex(f.content ?? `row ${f.rowKey}`);
    const entry = {
      chain: 'record:7',
      seq: i + 1,
      organizationId: '00000000-0000-4000-8000-00000000000a',
      source: f.source,
      rowKey: f.rowKey,
      op: f.op,
      occurredMicros: String(1_767_225_600_000_000 + i),
      contentVersion: 1,
      digestHex,
      contentText: f.op === 'D' ? null : f.content,
    };
    out.push({ ...entry, hashHex: entryHash(out[i - 1]?.hashHex ?? null, entry) });
  });
  return out;
}

const field = fc.record({
  source: fc.constantFrom('records', 'alarms', 'record_series_chunks', 'audit_events'),
  rowKey: fc.stringMatching(/^[0-9]{1,4}$/),
  op: fc.constantFrom('I' as const, 'U' as const, 'D' as const),
  content: fc.option(fc.json(), { nil: null }),
});
const chains = fc.array(field, { minLength: 2, maxLength: 30 });

// That the database computes the same hashes is proved by every verification of
// evidence.test.ts: each entry the triggers wrote is recomputed here.
describe('the evidence chain arithmetic [FEAT-EVIDENCE-CHAIN, RULE-AUDIT-3]', () => {
  it('a chain as written verifies, and its rows are its last entries', () => {
    fc.assert(
      fc.property(chains, (fields) => {
        const walk = walkChain('record:7', chainOf(fields));
        expect(walk.problems).toEqual([]);
        expect(walk.entries).toBe(fields.length);
        const last = fields.at(-1)!;
        expect(walk.rows.get(`${last.source}\u0000${last.rowKey}`)?.seq).toBe(fields.length);
      }),
    );
  });

  it('any field of any entry changed is named at that entry', () => {
    const editable = ['source', 'rowKey', 'op', 'occurredMicros', 'digestHex', 'organizationId'];
    fc.assert(
      fc.property(chains, fc.nat(), fc.constantFrom(...editable), (fields, at, name) => {
        const entries = chainOf(fields);
        const i = at % entries.length;
        const edited = { ...entries[i]!, [name]: `${String(entries[i]![name as 'source'])}x` };
        entries[i] = edited as ChainEntry;
        const walk = walkChain('record:7', entries);
        expect(walk.problems[0]).toMatchObject({ kind: 'entry_edited', seq: i + 1 });
      }),
    );
  });

  it('an entry removed or two swapped is named where the order breaks', () => {
    fc.assert(
      fc.property(chains, fc.nat(), fc.boolean(), (fields, at, swap) => {
        const entries = chainOf(fields);
        const i = at % (entries.length - 1);
        if (swap) [entries[i], entries[i + 1]] = [entries[i + 1]!, entries[i]!];
        else entries.splice(i, 1);
        const walk = walkChain('record:7', entries);
        expect(walk.problems[0]).toMatchObject({ kind: 'entry_missing', seq: i + 1 });
      }),
    );
  });

  it('a kept version changed after the fact no longer matches its digest', () => {
    const entries = chainOf([
      { source: 'alarms', rowKey: '5', op: 'I', content: '{"dismissed": false}' },
    ]);
    entries[0] = { ...entries[0]!, contentText: '{"dismissed": true}' };
    expect(walkChain('record:7', entries).problems).toEqual([
      expect.objectContaining({ kind: 'version_content_edited', seq: 1, row_key: '5' }),
    ]);
  });
});
