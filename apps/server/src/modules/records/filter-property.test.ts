import {
  parseFilter,
  serializeFilter,
  type FilterItem,
  type FilterLogic,
  type FilterOperator,
} from '@coldtrace/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';

/**
 * The filter through HTTP on PostgreSQL equals an in-memory evaluation of the
 * same filter over the same seeded records. The model below is written from
 * the documented semantics (docs/decisions/record-queries.md), not from the
 * compiler: text compares ignoring case and `%` / `_` are plain characters;
 * the negative operators match empty fields; a date value is the span it
 * names at its precision (spans written out by hand below).
 */

type Value = string | number | boolean | Date | null;
type Model = Record<string, Value>;
type Kind = 'text' | 'number' | 'id' | 'date' | 'enum' | 'boolean';

const TEXTS = ['', 'ab', 'AB x', 'a_b', 'a%b', 'x\\y', 'Bx', 'b-a', 'zz'];
const TEXT_VALUES = ['a', 'B', 'ab', 'A_', '_', '%', 'x\\', '\\y', 'b x', 'X', 'zz', 'q', 'a%b'];
const THRESHOLDS = [null, -2.5, 0, 2, 8, 8.5];
const NUMBER_VALUES = ['-2.5', '0', '2', '8', '8.5', '10', '-3', '+8', '8.0', '1e1', '.5'];
const POINTS = [0, 1, 10, 100];
const TIMES = [
  null,
  '2025-03-01T00:00:00.000Z',
  '2025-03-01T23:59:59.999Z',
  '2025-03-02T12:30:00.000Z',
  '2025-03-02T12:30:45.000Z',
  '2025-03-02T23:30:30.000Z',
  '2025-03-03T00:00:00.000Z',
];
/** Each date value with the span it names, by hand. */
const DATE_SPANS: Record<string, [string, string]> = {
  '2025-03-01': ['2025-03-01T00:00:00Z', '2025-03-02T00:00:00Z'],
  '2025-03-02': ['2025-03-02T00:00:00Z', '2025-03-03T00:00:00Z'],
  '2025-02-28': ['2025-02-28T00:00:00Z', '2025-03-01T00:00:00Z'],
  '2025-03-02T12:30': ['2025-03-02T12:30:00Z', '2025-03-02T12:31:00Z'],
  '2025-03-02T12:30:45': ['2025-03-02T12:30:45Z', '2025-03-02T12:30:46Z'],
  '2025-03-03T00:30+01:00': ['2025-03-02T23:30:00Z', '2025-03-02T23:31:00Z'],
  '2025-03-01T23:59:59.999Z': ['2025-03-01T23:59:59.999Z', '2025-03-02T00:00:00Z'],
};
const STATUSES = ['OK', 'Alarm'];
const TRIP_STATUSES = ['NOT_DEPARTED', 'IN_TRANSIT', 'ARRIVED'];
const BATTERY = [null, 'OK', 'LOW_BATTERY', 'CRITICAL'];
const TAG_TYPES = ['XT1_NFC_MU', 'XT1_RT', 'XT1_MAX', 'NanoTag'];

const FIELDS: Record<string, { kind: Kind; values?: string[] }> = {
  id: { kind: 'id' },
  primary_reference: { kind: 'text' },
  carrier: { kind: 'text' },
  shipper_name_address: { kind: 'text' },
  high_threshold: { kind: 'number' },
  number_of_points: { kind: 'number' },
  last_action_taken: { kind: 'date' },
  created: { kind: 'date' },
  computed_status: { kind: 'enum', values: STATUSES },
  trip_status: { kind: 'enum', values: TRIP_STATUSES },
  battery_health: { kind: 'enum', values: BATTERY.filter((b) => b !== null) as string[] },
  tag_type: { kind: 'enum', values: TAG_TYPES },
  active: { kind: 'boolean' },
};

const OPERATORS: Record<Kind, FilterOperator[]> = {
  text: [
    'contains',
    'equals',
    'startsWith',
    'endsWith',
    '=',
    '!=',
    'isAnyOf',
    'isEmpty',
    'isNotEmpty',
  ],
  number: ['=', '!=', '>', '>=', '<', '<=', 'isAnyOf', 'isEmpty', 'isNotEmpty'],
  id: [
    '=',
    '!=',
    '>',
    '>=',
    '<',
    '<=',
    'equals',
    'contains',
    'startsWith',
    'endsWith',
    'isAnyOf',
    'isEmpty',
    'isNotEmpty',
  ],
  date: ['is', 'not', 'after', 'onOrAfter', 'before', 'onOrBefore', 'isEmpty', 'isNotEmpty'],
  enum: ['is', 'not', 'equals', '=', '!=', 'isAnyOf', 'isEmpty', 'isNotEmpty'],
  boolean: ['is', 'not', '=', '!=', 'isEmpty', 'isNotEmpty'],
};

/** A small deterministic generator, so the seeded set is the same every run. */
function lcg(seed: number) {
  let state = seed;
  return <T>(list: readonly T[]): T => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return list[state % list.length]!;
  };
}

function randomCase(text: string, flip: boolean): string {
  return flip ? text.toLowerCase() : text;
}

function evaluate(item: FilterItem, record: Model): boolean {
  const { kind, values: enumValues } = FIELDS[item.field]!;
  const x = record[item.field] ?? null;
  const op = item.operator;
  const list =
    item.value === undefined ? [] : Array.isArray(item.value) ? item.value : [item.value];
  const v = list[0] ?? '';
  const empty = x === null || x === '';
  if (op === 'isEmpty') return empty;
  if (op === 'isNotEmpty') return !empty;

  const text = (s: Value) => (s === null ? null : String(s).toLowerCase());
  const like = (pattern: (hay: string, needle: string) => boolean) =>
    x !== null && pattern(String(x).toLowerCase(), v.toLowerCase());
  if (kind === 'text' || (kind === 'id' && ['contains', 'startsWith', 'endsWith'].includes(op))) {
    switch (op) {
      case 'contains':
        return like((h, n) => h.includes(n));
      case 'startsWith':
        return like((h, n) => h.startsWith(n));
      case 'endsWith':
        return like((h, n) => h.endsWith(n));
      case 'equals':
      case '=':
        return x !== null && text(x) === v.toLowerCase();
      case '!=':
        return x === null || text(x) !== v.toLowerCase();
      case 'isAnyOf':
        return x !== null && list.some((e) => e.toLowerCase() === text(x));
    }
  }
  if (kind === 'number' || kind === 'id') {
    const n = Number(v);
    const num = x as number | null;
    switch (op) {
      case '=':
      case 'equals':
        return num !== null && num === n;
      case '!=':
        return num === null || num !== n;
      case '>':
        return num !== null && num > n;
      case '>=':
        return num !== null && num >= n;
      case '<':
        return num !== null && num < n;
      case '<=':
        return num !== null && num <= n;
      case 'isAnyOf':
        return num !== null && list.some((e) => Number(e) === num);
    }
  }
  if (kind === 'date') {
    const [from, to] = DATE_SPANS[v]!.map((s) => new Date(s).getTime()) as [number, number];
    const t = x === null ? null : (x as Date).getTime();
    const within = t !== null && t >= from && t < to;
    switch (op) {
      case 'is':
        return within;
      case 'not':
        return !within;
      case 'after':
        return t !== null && t >= to;
      case 'onOrAfter':
        return t !== null && t >= from;
      case 'before':
        return t !== null && t < from;
      case 'onOrBefore':
        return t !== null && t < to;
    }
  }
  if (kind === 'enum') {
    const canonical = (s: string) => enumValues!.find((e) => e.toLowerCase() === s.toLowerCase());
    switch (op) {
      case 'is':
      case 'equals':
      case '=':
        return x === canonical(v);
      case 'not':
      case '!=':
        return x !== canonical(v);
      case 'isAnyOf':
        return x !== null && list.some((e) => canonical(e) === x);
    }
  }
  if (kind === 'boolean') {
    const b = v.toLowerCase() === 'true';
    return op === 'is' || op === '=' ? x === b : x !== b;
  }
  throw new Error(`model misses ${item.field} ${op}`);
}

function expected(items: FilterItem[], logic: FilterLogic, seeded: Model[]): string[] {
  return seeded
    .filter((record) =>
      items.length === 0
        ? true
        : logic === 'and'
          ? items.every((item) => evaluate(item, record))
          : items.some((item) => evaluate(item, record)),
    )
    .map((record) => String(record.id))
    .sort();
}

describe('the records filter on PostgreSQL equals its in-memory model [RULE-FILTER-1, RULE-FILTER-2]', () => {
  let t: TestApp;
  let client: TestClient;
  const seeded: Model[] = [];
  let ids: number[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const f = recordFactories(t.db);
    const signed = await t.signIn({ role: 'Viewer' });
    client = signed.client;
    const org = signed.orgs[0]!;
    const other = await t.createOrg();
    const pick = lcg(20250301);
    const locations = [
      null,
      ...(await Promise.all(TEXTS.slice(1, 5).map((name) => f.travelLocation(org, { name })))),
    ];
    for (let i = 0; i < 36; i += 1) {
      const shipper = pick(locations);
      const lastAction = pick(TIMES);
      const row = await f.record(org, undefined, {
        tagType: pick(TAG_TYPES),
        primaryReference: pick(TEXTS),
        carrier: pick(TEXTS),
        shipperLocationId: shipper?.id ?? null,
        highThreshold: pick(THRESHOLDS),
        numberOfPoints: pick(POINTS),
        lastActionTaken: lastAction === null ? null : new Date(lastAction),
        created: new Date(pick(TIMES.filter((x) => x !== null))!),
        computedStatus: pick(STATUSES),
        tripStatus: pick(TRIP_STATUSES),
        batteryHealth: pick(BATTERY),
        active: pick([true, false]),
      });
      seeded.push({
        id: row.id,
        primary_reference: row.primaryReference,
        carrier: row.carrier,
        shipper_name_address: shipper?.name ?? null,
        high_threshold: row.highThreshold,
        number_of_points: row.numberOfPoints,
        last_action_taken: row.lastActionTaken,
        created: row.created,
        computed_status: row.computedStatus,
        trip_status: row.tripStatus,
        battery_health: row.batteryHealth,
        tag_type: row.tagType,
        active: row.active,
      });
    }
    // Another organization's record matches many filters and must never appear.
    await f.record(other, undefined, { primaryReference: 'ab', carrier: 'ab' });
    ids = seeded.map((r) => r.id as number);
  });
  afterAll(() => t.close());

  function valueArb(field: string, operator: FilterOperator): fc.Arbitrary<string> {
    const { kind, values } = FIELDS[field]!;
    const flip = fc.boolean();
    switch (kind) {
      case 'text':
        return fc.constantFrom(...TEXT_VALUES);
      case 'number':
        return fc.constantFrom(...NUMBER_VALUES);
      case 'id':
        return ['contains', 'startsWith', 'endsWith'].includes(operator)
          ? fc.constantFrom(...ids.map(String), '1', '2', '0')
          : fc.constantFrom(...ids.map(String), String(ids[0]! - 1), String(ids.at(-1)! + 1));
      case 'date':
        return fc.constantFrom(...Object.keys(DATE_SPANS));
      case 'enum':
        return fc.tuple(fc.constantFrom(...values!), flip).map(([v, f]) => randomCase(v, f));
      case 'boolean':
        return fc.constantFrom('true', 'false', 'True', 'FALSE');
    }
  }

  const itemArb: fc.Arbitrary<FilterItem> = fc.constantFrom(...Object.keys(FIELDS)).chain((field) =>
    fc.constantFrom(...OPERATORS[FIELDS[field]!.kind]).chain((operator) => {
      if (operator === 'isEmpty' || operator === 'isNotEmpty') {
        return fc.constant<FilterItem>({ field, operator });
      }
      if (operator === 'isAnyOf') {
        return fc
          .array(valueArb(field, operator), { minLength: 1, maxLength: 3 })
          .map((value): FilterItem => ({ field, operator, value }));
      }
      return valueArb(field, operator).map((value): FilterItem => ({ field, operator, value }));
    }),
  );

  it('for random filters over the whitelist', async () => {
    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(itemArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom<FilterLogic>('and', 'or'),
        async (items, logic) => {
          const text = serializeFilter(items, logic);
          const parsed = parseFilter(text);
          const want = expected(parsed.items, parsed.logic, seeded);
          if (want.length > 0 && want.length < seeded.length) nonTrivial += 1;
          const res = await client.get(
            `/api/devices/xt1/records/?page_size=1000&filter=${encodeURIComponent(text)}`,
          );
          expect(res.statusCode, `${text}: ${res.body}`).toBe(200);
          const got = (res.json() as { id: string }[]).map((r) => r.id).sort();
          expect(got, text).toEqual(want);
          expect(Number(res.headers['x-total-count']), text).toBe(want.length);
        },
      ),
      { numRuns: 150 },
    );
    // The seeded set and the values make many filters select some records, not all or none.
    // Over 150 runs about 55 are non-trivial (43–64 in six runs; 39 once): the bound is
    // set far below that, so it catches a generator gone degenerate, not an unlucky seed.
    expect(nonTrivial).toBeGreaterThan(20);
  });

  it('answers any query text with 200 or a 4xx naming the parameter, never a 5xx', async () => {
    const grammarish = fc.stringMatching(
      /^[a-z_.]{0,20}(__(contains|eq|ne|gt|gte|lt|lte|is|not|after|before|isAnyOf|isEmpty|x))?=?[ -~]{0,20}([|^][ -~]{0,30})?$/,
    );
    const anyText = fc.oneof(grammarish, fc.string({ maxLength: 40 }), fc.constant(''));
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            filter: anyText,
            search: anyText,
            order_by: fc.oneof(anyText, fc.constantFrom('-id', 'created,-carrier', '-')),
            latest: fc.oneof(anyText, fc.constantFrom('true', 'false')),
            page_number: fc.oneof(anyText, fc.integer({ min: -5, max: 5 }).map(String)),
            page_size: fc.oneof(anyText, fc.integer({ min: -5, max: 2000 }).map(String)),
          },
          { requiredKeys: [] },
        ),
        async (params) => {
          const query = new URLSearchParams(params as Record<string, string>).toString();
          const res = await client.get(`/api/devices/xt1/records/?${query}`);
          expect(res.statusCode, `${query}: ${res.body}`).toBeLessThan(500);
          if (res.statusCode !== 200) {
            expect(res.statusCode, query).toBe(400);
            const fields = Object.keys(res.json().fields ?? {});
            expect(fields.length, query).toBeGreaterThan(0);
            for (const field of fields) expect(Object.keys(params), query).toContain(field);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers any record_ids text with 200, 400 or 404, never a 5xx', async () => {
    const idText = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc
        .array(fc.oneof(fc.constantFrom(...ids.map(String)), fc.bigInt().map(String)), {
          maxLength: 5,
        })
        .map((list) => list.join(',')),
    );
    const paths = [
      '/api/devices/xt1/records/actions/',
      '/api/devices/xt1/records/scans/',
      '/api/devices/aggregate/locations/',
      '/api/devices/aggregate/record-temperatures/',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), idText, async (path, text) => {
        const res = await client.get(`${path}?${new URLSearchParams({ record_ids: text })}`);
        expect([200, 400, 404], `${path} ${text}: ${res.body}`).toContain(res.statusCode);
        if (res.statusCode !== 200) expect(Object.keys(res.json().fields)).toEqual(['record_ids']);
      }),
      { numRuns: 100 },
    );
  });
});
