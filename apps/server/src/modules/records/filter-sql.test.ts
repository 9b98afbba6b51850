import { parseFilter, serializeFilter, type FilterItem, type FilterLogic } from '@coldtrace/domain';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../kernel/errors';
import { RECORD_FIELDS, TAG_FIELDS } from './fields';
import {
  compileFilter,
  compileOrderBy,
  escapeLike,
  isFallbackOrder,
  OPERATORS_BY_TYPE,
  type FieldCatalog,
  type FieldType,
} from './filter-sql';
import { parseInstantRange } from './iso-range';

const dialect = new PgDialect();
/** An ORDER BY's terms as text, joined as the lists join them. */
const orderText = (terms: SQL[]) => dialect.sqlToQuery(sql.join(terms, sql`, `)).sql;
const render = (text: string | undefined, catalog: FieldCatalog = RECORD_FIELDS) => {
  const compiled = compileFilter(text, catalog);
  return compiled ? dialect.sqlToQuery(compiled) : undefined;
};

function errorOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('compileFilter [RULE-FILTER-1, RULE-FILTER-2, RULE-FILTER-3]', () => {
  it('compiles items to parameterized SQL joined by the logic', () => {
    const q = render('primary_reference__contains=50%_off^high_threshold__gte=8')!;
    expect(q.sql).toBe(
      '(COALESCE("records"."primary_reference" ILIKE $1, false) AND COALESCE("records"."high_threshold" >= $2::double precision, false))',
    );
    expect(q.params).toEqual(['%50\\%\\_off%', 8]);
  });

  it('spells every operator of every type with bound values only', () => {
    const cases: [string, string, unknown[]][] = [
      ['carrier__startsWith=DH', '"records"."carrier" ILIKE $1', ['DH%']],
      ['carrier__endsWith=a\\\\b', '"records"."carrier" ILIKE $1', ['%a\\\\b']],
      ['carrier__equals=DHL', 'lower("records"."carrier") = lower($1)', ['DHL']],
      ['carrier__ne=DHL', 'lower("records"."carrier") IS DISTINCT FROM lower($1)', ['DHL']],
      ['carrier__isAnyOf=a,b', 'lower("records"."carrier") IN (lower($1), lower($2))', ['a', 'b']],
      ['carrier__isEmpty=', '("records"."carrier" IS NULL OR "records"."carrier" = \'\')', []],
      ['high_threshold__isNotEmpty=', 'NOT "records"."high_threshold" IS NULL', []],
      [
        'high_threshold__isAnyOf=1,2.5',
        '"records"."high_threshold" IN ($1::double precision, $2::double precision)',
        [1, 2.5],
      ],
      ['id__eq=12', '"records"."id" = $1::bigint', [12]],
      ['id__equals=12', '"records"."id" = $1::bigint', [12]],
      ['id__contains=12', '("records"."id")::text ILIKE $1', ['%12%']],
      [
        'created__is=2025-03-01',
        '("records"."created" >= $1::timestamptz AND "records"."created" < $2::timestamptz)',
        ['2025-03-01T00:00:00.000Z', '2025-03-02T00:00:00.000Z'],
      ],
      [
        'created__after=2025-03-01',
        '"records"."created" >= $1::timestamptz',
        ['2025-03-02T00:00:00.000Z'],
      ],
      [
        'start_time__before=2025-03-01T08:30',
        'to_timestamp("records"."start_time_seconds") < $1::timestamptz',
        ['2025-03-01T08:30:00.000Z'],
      ],
      ['status__is=alarm', '"records"."status" = $1', ['Alarm']],
      ['status__not=OK', '"records"."status" IS DISTINCT FROM $1', ['OK']],
      ['active__is=TRUE', '"records"."active" = $1::boolean', [true]],
      ['active__not=false', '"records"."active" IS DISTINCT FROM $1::boolean', [false]],
      ['shipper_name_address.name__contains=x', '"shipper"."name" ILIKE $1', ['%x%']],
    ];
    for (const [text, body, params] of cases) {
      const q = render(text)!;
      expect(q.sql, text).toBe(`(COALESCE(${body}, false))`);
      expect(q.params, text).toEqual(params);
    }
  });

  it('leaves out an empty filter and empty items', () => {
    expect(render(undefined)).toBeUndefined();
    expect(render('   ')).toBeUndefined();
    expect(render('carrier__contains=   ')).toBeUndefined();
    expect(render('carrier__isAnyOf=,,')).toBeUndefined();
  });

  it('answers 400 naming the filter and the item at fault', () => {
    const cases: [string, string][] = [
      ['nope__contains=x', "Invalid filter item 'nope__contains=x': unknown field 'nope'"],
      ['constructor__eq=1', "unknown field 'constructor'"],
      ['high_threshold__contains=1', "operator 'contains' does not apply to the number field"],
      ['created__gt=2025-01-01', "operator '>' does not apply to the date field 'created'"],
      ['active__contains=t', "operator 'contains' does not apply to the boolean field"],
      ['status__contains=O', "operator 'contains' does not apply to the enum field"],
      ['high_threshold__gt=NaN', "'NaN' is not a number"],
      ['high_threshold__isAnyOf=1,x', "'x' is not a number"],
      ['id__gt=1e3', "'1e3' is not an integer"],
      ['id__eq=99999999999999999999', 'is not an integer'],
      ['created__is=03/01/2025', "'03/01/2025' is not an ISO 8601 date"],
      [
        'tag_type__isAnyOf=XT1_RT,Phone',
        "'Phone' is not one of XT1_NFC_MU, XT1_RT, XT1_MAX, NanoTag",
      ],
      ['active__is=1', "'1' is not true or false"],
      ['carrier__wat=1', "unknown operator 'wat'"],
      ['carrier__contains=a\\b', "invalid escape '\\b'"],
      ['carrier__contains=a^', 'is empty'],
    ];
    for (const [text, message] of cases) {
      const error = errorOf(() => compileFilter(text, RECORD_FIELDS));
      expect(error.code, text).toBe('VALIDATION_ERROR');
      expect(error.statusCode).toBe(400);
      expect(Object.keys(error.fields ?? {}), text).toEqual(['filter']);
      expect(error.fields!.filter, text).toContain(message);
    }
  });

  it('allows each type exactly its operators', () => {
    expect(OPERATORS_BY_TYPE.date).not.toContain('contains');
    expect(OPERATORS_BY_TYPE.boolean).not.toContain('>');
    for (const operators of Object.values(OPERATORS_BY_TYPE)) {
      expect(operators).toContain('isEmpty');
    }
  });
});

describe('compileOrderBy [RULE-FILTER-1, RULE-FILTER-2, RULE-FILTER-3]', () => {
  it('orders by whitelisted fields, empty values last', () => {
    const terms = compileOrderBy(
      ['-created', 'carrier,id', '-last_scanned', '-shipper_name_address', '-start_time'],
      RECORD_FIELDS,
      ['-last_action_taken'],
    );
    expect(orderText(terms)).toEqual(
      [
        // NOT NULL columns of the list's own table: no NULLS clause (an index serves both directions).
        '"records"."created" DESC',
        '"records"."carrier" ASC',
        '"records"."id" ASC',
        // A column that may be NULL, a NOT NULL column of a left-joined table, an expression.
        '"records"."last_scanned" DESC NULLS LAST',
        '"shipper"."name" DESC NULLS LAST',
        'to_timestamp("records"."start_time_seconds") DESC NULLS LAST',
      ].join(', '),
    );
    const fallback = compileOrderBy(undefined, TAG_FIELDS, ['-last_action_taken']);
    expect(orderText(fallback)).toBe('"last_record"."last_action_taken" DESC NULLS LAST');
    const tagTerms = compileOrderBy(['-serial_number', '-carrier'], TAG_FIELDS, ['id']);
    expect(orderText(tagTerms)).toEqual(
      [
        '"tags"."serial_number" DESC',
        // The latest record's column: a tag without a record has none.
        '"last_record"."carrier" DESC NULLS LAST',
      ].join(', '),
    );
    expect(orderText(compileOrderBy([' ', ''], RECORD_FIELDS, ['id']))).toBe('"records"."id" ASC');
  });

  it('orders by every field of both lists in both directions, asked again or not (compiled once)', () => {
    for (const catalog of [RECORD_FIELDS, TAG_FIELDS]) {
      for (const [field, spec] of Object.entries(catalog)) {
        for (const sort of ['', '-']) {
          const column = dialect.sqlToQuery(sql`${spec.expr}`).sql;
          const expected = `${column} ${sort === '-' ? 'DESC' : 'ASC'}${spec.neverNull ? '' : ' NULLS LAST'}`;
          const first = orderText(compileOrderBy([`${sort}${field}`], catalog, ['id']));
          expect(first, `${sort}${field}`).toBe(expected);
          expect(orderText(compileOrderBy([`${sort}${field}`], catalog, ['id']))).toBe(first);
        }
      }
    }
    // A valid order compiled before does not let a faulty one through.
    compileOrderBy(['-created'], RECORD_FIELDS, ['id']);
    expect(
      errorOf(() => compileOrderBy(['-created', 'nope'], RECORD_FIELDS, ['id'])).statusCode,
    ).toBe(400);
  });

  it('answers 400 naming order_by for an unknown or malformed field', () => {
    for (const entry of ['nope', '-nope', 'id;drop', '--id', 'id desc', '__proto__']) {
      const error = errorOf(() => compileOrderBy([entry], RECORD_FIELDS, ['id']));
      expect(error.statusCode, entry).toBe(400);
      expect(Object.keys(error.fields ?? {}), entry).toEqual(['order_by']);
    }
  });

  it("tells the fallback order as it reads it (the lists' fast paths take only that one)", () => {
    const fallback = ['-last_action_taken'];
    for (const entries of [
      undefined,
      [],
      [' ', ''],
      ['-last_action_taken'],
      [' -last_action_taken, '],
    ]) {
      expect(isFallbackOrder(entries, fallback), JSON.stringify(entries)).toBe(true);
    }
    for (const entries of [['last_action_taken'], ['-last_action_taken', 'id'], ['-created']]) {
      expect(isFallbackOrder(entries, fallback), JSON.stringify(entries)).toBe(false);
    }
    expect(errorOf(() => isFallbackOrder(['-nope;'], fallback)).statusCode).toBe(400);
  });
});

describe('escapeLike [RULE-FILTER-1, RULE-FILTER-2, RULE-FILTER-3]', () => {
  it('escapes the LIKE wildcards and the escape character', () => {
    expect(escapeLike('100%_\\x')).toBe('100\\%\\_\\\\x');
    fc.assert(
      fc.property(fc.string(), (s) => {
        // Unescaping gives the text back; no unescaped wildcard remains.
        expect(escapeLike(s).replace(/\\(.)/g, '$1')).toBe(s);
        expect(escapeLike(s).replace(/\\./g, '')).not.toMatch(/[%_\\]/);
      }),
    );
  });
});

describe('parseInstantRange [RULE-FILTER-1, RULE-FILTER-2, RULE-FILTER-3]', () => {
  it('reads the span a date or date-time names at its precision', () => {
    const span = (text: string) => {
      const r = parseInstantRange(text);
      return r && [r.from.toISOString(), r.to.toISOString()];
    };
    expect(span('2025-03-01')).toEqual(['2025-03-01T00:00:00.000Z', '2025-03-02T00:00:00.000Z']);
    expect(span('2025-03-01T08:30')).toEqual([
      '2025-03-01T08:30:00.000Z',
      '2025-03-01T08:31:00.000Z',
    ]);
    expect(span('2025-03-01 08:30:15Z')).toEqual([
      '2025-03-01T08:30:15.000Z',
      '2025-03-01T08:30:16.000Z',
    ]);
    expect(span('2025-03-01T08:30:15.25+02:00')).toEqual([
      '2025-03-01T06:30:15.250Z',
      '2025-03-01T06:30:15.251Z',
    ]);
    expect(span('2025-03-01T00:30-0130')).toEqual([
      '2025-03-01T02:00:00.000Z',
      '2025-03-01T02:01:00.000Z',
    ]);
    expect(span('2024-02-29')).not.toBeNull();
    for (const bad of [
      '2025-02-29',
      '2025-04-31',
      '2025-13-01',
      '2025-00-10',
      '2025-03-01T24:00',
      '2025-03-01T12:60',
      '2025-03-01T12:00:60',
      '2025-03-01T12:00+24:00',
      '2025-3-1',
      '20250301',
      'today',
      '',
      '0000-01-01',
    ]) {
      expect(span(bad), bad).toBeNull();
    }
  });
});

// ---------------------------------------------------------------- properties

const VALUE_BY_TYPE: Record<FieldType, fc.Arbitrary<string>> = {
  // A marker no SQL of ours contains, then anything.
  text: fc.string({ minLength: 1, maxLength: 12 }).map((s) => `~${s}`),
  number: fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
    .map((n) => String(n)),
  id: fc.integer({ min: 1, max: 1e9 }).map(String),
  date: fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .chain((d) =>
      fc.constantFrom(
        d.toISOString().slice(0, 10),
        d.toISOString().slice(0, 16),
        d.toISOString().slice(0, 19),
        d.toISOString(),
      ),
    ),
  enum: fc.constant(''),
  boolean: fc.constantFrom('true', 'false', 'TRUE'),
};

function valueArb(field: string, catalog: FieldCatalog): fc.Arbitrary<string> {
  const spec = catalog[field]!;
  if (spec.type === 'enum') return fc.constantFrom(...spec.values!);
  return VALUE_BY_TYPE[spec.type];
}

/** A random valid filter item over `catalog`. */
function itemArb(catalog: FieldCatalog): fc.Arbitrary<FilterItem> {
  return fc.constantFrom(...Object.keys(catalog)).chain((field) => {
    const spec = catalog[field]!;
    return fc.constantFrom(...OPERATORS_BY_TYPE[spec.type]).chain((operator) => {
      if (operator === 'isEmpty' || operator === 'isNotEmpty') {
        return fc.constant<FilterItem>({ field, operator });
      }
      const value = valueArb(field, catalog);
      if (operator === 'isAnyOf') {
        return fc
          .array(value, { minLength: 1, maxLength: 3 })
          .map((list): FilterItem => ({ field, operator, value: list }));
      }
      // contains and friends on an id take any text.
      const text =
        spec.type === 'id' && ['contains', 'startsWith', 'endsWith'].includes(operator)
          ? VALUE_BY_TYPE.text
          : value;
      return text.map((v): FilterItem => ({ field, operator, value: v }));
    });
  });
}

function filterArb(catalog: FieldCatalog) {
  return fc.record({
    items: fc.array(itemArb(catalog), { minLength: 1, maxLength: 5 }),
    logic: fc.constantFrom<FilterLogic>('and', 'or'),
  });
}

/** The same filter with every value replaced by another valid one (same list lengths). */
function revalued(items: FilterItem[], replacement: FilterItem[]): FilterItem[] {
  return items.map((item, i) => {
    const other = replacement[i]!;
    if (item.value === undefined) return item;
    if (Array.isArray(item.value)) {
      const list = Array.isArray(other.value) ? other.value : [String(other.value)];
      return { ...item, value: item.value.map((_, j) => list[j % list.length]!) };
    }
    return { ...item, value: Array.isArray(other.value) ? other.value[0]! : other.value! };
  });
}

describe('filter SQL properties [RULE-FILTER-1, RULE-FILTER-2, RULE-FILTER-3]', () => {
  for (const [name, catalog] of [
    ['records', RECORD_FIELDS],
    ['tags', TAG_FIELDS],
  ] as const) {
    it(`${name}: the SQL text never contains a text value, and never depends on any value`, () => {
      fc.assert(
        fc.property(filterArb(catalog), ({ items, logic }) => {
          const text = serializeFilter(items, logic);
          const q = render(text, catalog);
          if (!q) return;
          for (const item of items) {
            if (catalog[item.field]!.type !== 'text' || item.value === undefined) continue;
            for (const v of Array.isArray(item.value) ? item.value : [item.value]) {
              if (v.trim().length > 1) expect(q.sql).not.toContain(v.trim());
            }
          }
          // The only literal in the SQL is the empty string ''.
          expect(q.sql.replaceAll("''", '')).not.toContain("'");
        }),
        { numRuns: 300 },
      );
    });

    it(`${name}: swapping every value for another of its type gives the same SQL text`, () => {
      // Pairs of filters with the same fields and operators, different values.
      const pair = filterArb(catalog).chain(({ items, logic }) =>
        fc
          .tuple(
            ...items.map((item) =>
              itemArb({ [item.field]: catalog[item.field]! }).filter(
                (other) => other.operator === item.operator,
              ),
            ),
          )
          .map((others) => ({ items, logic, others })),
      );
      fc.assert(
        fc.property(pair, ({ items, logic, others }) => {
          const a = render(serializeFilter(items, logic), catalog);
          const b = render(serializeFilter(revalued(items, others), logic), catalog);
          // Trimming may drop a blank value in one and not the other: compare only when both keep all.
          const kept = (x: typeof a, list: FilterItem[]) =>
            x !== undefined &&
            parseFilter(serializeFilter(list, logic)).items.length === list.length;
          if (!kept(a, items) || !kept(b, revalued(items, others))) return;
          expect(b!.sql).toBe(a!.sql);
        }),
        { numRuns: 300 },
      );
    });
  }
});
