import { ZExcursionAlarm, ZRecord } from '@coldtrace/contract';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastListSerializer, replyJsonSchema } from './reply-serializer';

const Party = z.object({ id: z.string(), name: z.string() });
const Row = z.object({
  id: z.string(),
  count: z.number().int(),
  note: z.string().nullable(),
  kind: z.enum(['A', 'B']).nullable(),
  party: Party.nullable(),
  parties: z.array(Party),
  at: z.iso.datetime().optional(),
});
const List = z.array(Row);

const row = {
  id: '1',
  count: 2,
  note: null,
  kind: 'A',
  party: { id: 'p', name: 'Basel' },
  parties: [{ id: 'q', name: 'Bern' }],
};

/** Production: no Zod check beside it. */
const write = fastListSerializer(List, false)!;
const zod = serializerCompiler({ schema: List, method: 'GET', url: '/' }) as (d: unknown) => string;

describe('fast list replies [FEAT-PERFORMANCE, SPEC-3]', () => {
  it('write what Zod writes', () => {
    const rows = [row, { ...row, id: '2', party: null, kind: null, at: '2026-01-01T00:00:00Z' }];
    expect(write(rows)).toBe(zod(rows));
    expect(JSON.parse(write(rows))).toEqual(rows);
  });

  it('never send a field the schema does not name, at any depth', () => {
    const leaky = [
      {
        ...row,
        secret: 'top',
        party: { ...row.party, secret: 'nested nullable' },
        parties: [{ id: 'q', name: 'Bern', secret: 'in an array' }],
      },
    ];
    const sent = write(leaky);
    expect(sent).not.toContain('secret');
    expect(JSON.parse(sent)).toEqual([row]);
  });

  it('refuse a reply missing a required field or with a value of the wrong kind', () => {
    const { count: _count, ...missing } = row;
    expect(() => write([missing])).toThrow();
    expect(() => write([{ ...row, count: 'many' }])).toThrow();
    expect(() => write([{ ...row, parties: 'none' }])).toThrow();
    expect(() => write([{ ...row, party: 5 }])).toThrow();
  });

  it('under the tests, also check each value with the Zod schema', () => {
    const checked = fastListSerializer(List, true)!;
    expect(() => checked([{ ...row, kind: 'C' }])).toThrow();
    expect(() => checked([{ ...row, count: 1.5 }])).toThrow();
    expect(checked([{ ...row, secret: 1 }])).toBe(write([row]));
  });

  it('a field of any value (z.unknown()) may be undefined, as with Zod', () => {
    const Change = z.array(z.object({ field: z.string(), old_value: z.unknown() }));
    const write = fastListSerializer(Change, false)!;
    const rows = [
      { field: 'a', old_value: undefined },
      { field: 'b', old_value: null },
      { field: 'c', old_value: { x: [1] } },
    ];
    expect(write(rows)).toBe(JSON.stringify(rows));
  });

  it('only lists; a schema with no JSON Schema stays with Zod', () => {
    expect(fastListSerializer(Row, false)).toBeNull();
    expect(fastListSerializer(z.array(z.date()), false)).toBeNull();
    expect(fastListSerializer(z.array(z.string().transform((s) => s.length)), false)).toBeNull();
  });

  it('the records and alarm lists: nullable unions written as type lists (no anyOf left)', () => {
    for (const schema of [z.array(ZRecord), z.array(ZExcursionAlarm)]) {
      expect(JSON.stringify(replyJsonSchema(schema))).not.toContain('anyOf');
    }
  });
});
