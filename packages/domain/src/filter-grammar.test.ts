import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeFilterValue,
  FILTER_OPERATORS,
  FilterSyntaxError,
  normalizeFilterItem,
  operatorFromWireName,
  operatorWireName,
  parseFilter,
  parseOrderBy,
  serializeFilter,
  serializeOrderBy,
  type FilterItem,
  type FilterLogic,
  type FilterOperator,
  type OrderByItem,
} from './filter-grammar';

function syntaxError(text: string): FilterSyntaxError {
  try {
    parseFilter(text);
  } catch (error) {
    if (error instanceof FilterSyntaxError) return error;
    throw error;
  }
  throw new Error(`no error for ${text}`);
}

describe('operators [RULE-FILTER-1, SPEC-5.6]', () => {
  it('lists the spec operators', () => {
    expect(FILTER_OPERATORS).toEqual([
      'contains',
      'equals',
      'startsWith',
      'endsWith',
      '=',
      '!=',
      '>',
      '>=',
      '<',
      '<=',
      'is',
      'not',
      'after',
      'onOrAfter',
      'before',
      'onOrBefore',
      'isAnyOf',
      'isEmpty',
      'isNotEmpty',
    ]);
  });

  it('spells the symbolic operators eq, ne, gt, gte, lt, lte on the wire', () => {
    expect(
      ['=', '!=', '>', '>=', '<', '<='].map((op) => operatorWireName(op as FilterOperator)),
    ).toEqual(['eq', 'ne', 'gt', 'gte', 'lt', 'lte']);
    expect(operatorWireName('onOrAfter')).toBe('onOrAfter');
    expect(operatorFromWireName('gte')).toBe('>=');
    expect(operatorFromWireName('>=')).toBeUndefined();
    expect(operatorFromWireName('GTE')).toBeUndefined();
    for (const operator of FILTER_OPERATORS) {
      expect(operatorFromWireName(operatorWireName(operator))).toBe(operator);
    }
  });
});

describe('escapeFilterValue [RULE-FILTER-1, SPEC-5.6]', () => {
  it('escapes ^ | = , and the backslash', () => {
    expect(escapeFilterValue('a^b|c=d,e\\f')).toBe('a\\^b\\|c\\=d\\,e\\\\f');
    expect(escapeFilterValue('plain text')).toBe('plain text');
  });
});

describe('serializeFilter [RULE-FILTER-1, SPEC-5.6]', () => {
  it('writes field__operator=value joined by the logic', () => {
    const items: FilterItem[] = [
      { field: 'primary_reference', operator: 'contains', value: 'ACME' },
      { field: 'high_threshold', operator: '>=', value: '8' },
    ];
    expect(serializeFilter(items, 'and')).toBe(
      'primary_reference__contains=ACME^high_threshold__gte=8',
    );
    expect(serializeFilter(items, 'or')).toBe(
      'primary_reference__contains=ACME|high_threshold__gte=8',
    );
    expect(serializeFilter(items)).toBe('primary_reference__contains=ACME|high_threshold__gte=8');
  });

  it('trims and escapes values', () => {
    expect(
      serializeFilter([{ field: 'po_number', operator: 'equals', value: '  A^B|C=D,E\\F ' }]),
    ).toBe('po_number__equals=A\\^B\\|C\\=D\\,E\\\\F');
  });

  it('writes isAnyOf as an escaped comma-separated list, dropping empty elements', () => {
    const item: FilterItem = {
      field: 'carrier',
      operator: 'isAnyOf',
      value: [' DHL ', '', 'UPS, Inc', '  '],
    };
    expect(serializeFilter([item])).toBe('carrier__isAnyOf=DHL,UPS\\, Inc');
    expect(serializeFilter([{ field: 'carrier', operator: 'isAnyOf', value: 'DHL' }])).toBe(
      'carrier__isAnyOf=DHL',
    );
  });

  it('writes isEmpty and isNotEmpty without a value', () => {
    expect(
      serializeFilter(
        [
          { field: 'po_number', operator: 'isEmpty', value: 'ignored' },
          { field: 'carrier', operator: 'isNotEmpty' },
        ],
        'and',
      ),
    ).toBe('po_number__isEmpty=^carrier__isNotEmpty=');
  });

  it('leaves out items with nothing to compare with', () => {
    const items: FilterItem[] = [
      { field: 'a', operator: 'contains', value: '   ' },
      { field: 'b', operator: 'equals' },
      { field: 'c', operator: 'isAnyOf', value: [' ', ''] },
      { field: 'd', operator: 'isAnyOf', value: [] },
      { field: 'e', operator: '=', value: ['1', '2'] },
      { field: 'f', operator: 'contains', value: 'kept' },
    ];
    expect(serializeFilter(items, 'and')).toBe('f__contains=kept');
    expect(serializeFilter([])).toBe('');
  });

  it('refuses a field name it cannot write', () => {
    for (const field of ['', 'a=b', 'a b', 'a^b', '1abc', 'a|b']) {
      expect(() => serializeFilter([{ field, operator: 'contains', value: 'x' }]), field).toThrow(
        FilterSyntaxError,
      );
    }
  });
});

describe('parseFilter [RULE-FILTER-1, SPEC-5.6]', () => {
  it('reads items and logic', () => {
    expect(parseFilter('primary_reference__contains=ACME^high_threshold__gte=8')).toEqual({
      items: [
        { field: 'primary_reference', operator: 'contains', value: 'ACME' },
        { field: 'high_threshold', operator: '>=', value: '8' },
      ],
      logic: 'and',
    });
    expect(parseFilter('a__ne=1|b__lt=2|c__lte=3').logic).toBe('or');
  });

  it('defaults the logic to or', () => {
    expect(parseFilter('')).toEqual({ items: [], logic: 'or' });
    expect(parseFilter('   ')).toEqual({ items: [], logic: 'or' });
    expect(parseFilter('a__gt=1')).toEqual({
      items: [{ field: 'a', operator: '>', value: '1' }],
      logic: 'or',
    });
  });

  it('unescapes values and splits isAnyOf lists', () => {
    expect(parseFilter('a__equals=x\\^y\\|z\\=w\\,v\\\\').items).toEqual([
      { field: 'a', operator: 'equals', value: 'x^y|z=w,v\\' },
    ]);
    expect(parseFilter('carrier__isAnyOf= DHL ,UPS\\, Inc,,').items).toEqual([
      { field: 'carrier', operator: 'isAnyOf', value: ['DHL', 'UPS, Inc'] },
    ]);
  });

  it('accepts an unescaped comma in a single value', () => {
    expect(parseFilter('a__contains=x,y').items).toEqual([
      { field: 'a', operator: 'contains', value: 'x,y' },
    ]);
  });

  it('takes the operator after the last __ of the key', () => {
    expect(parseFilter('shipper_name_address__name__startsWith=Ac').items).toEqual([
      { field: 'shipper_name_address__name', operator: 'startsWith', value: 'Ac' },
    ]);
    expect(parseFilter('a___eq=1').items).toEqual([{ field: 'a_', operator: '=', value: '1' }]);
  });

  it('reads valueless operators and leaves out empty items', () => {
    expect(parseFilter('a__isEmpty=^b__isNotEmpty=^c__contains=  ^d__isAnyOf=,').items).toEqual([
      { field: 'a', operator: 'isEmpty' },
      { field: 'b', operator: 'isNotEmpty' },
    ]);
  });

  it('names the bad item', () => {
    const cases: [string, string, RegExp][] = [
      ['a__eq=1^b__foo=2', 'b__foo=2', /unknown operator 'foo'/],
      ['a=1', 'a=1', /missing '__'/],
      ['a__eq', 'a__eq', /missing '='/],
      ['__eq=1', '__eq=1', /invalid field name ''/],
      ['a b__eq=1', 'a b__eq=1', /invalid field name/],
      ['a__eq=x\\q', 'a__eq=x\\q', /invalid escape '\\q'/],
      ['a__eq=x\\', 'a__eq=x\\', /ends with '\\'/],
      ['a__eq=x=y', 'a__eq=x=y', /unescaped '='/],
      ['a__isEmpty=3', 'a__isEmpty=3', /takes no value/],
      ['a__eq=1^b__eq=2|c__eq=3', 'c__eq=3', /not both/],
      ['a__eq=1|b__eq=2^c__eq=3', 'c__eq=3', /not both/],
      ['a__eq=1^^b__eq=2', '', /item 2 is empty/],
      ['a__eq=1^', '', /item 2 is empty/],
    ];
    for (const [text, item, reason] of cases) {
      const error = syntaxError(text);
      expect(error.item, text).toBe(item);
      expect(error.message, text).toMatch(reason);
      expect(error.name).toBe('FilterSyntaxError');
    }
  });

  it('does not treat an escaped separator as mixing logics', () => {
    expect(parseFilter('a__eq=x\\|y^b__eq=z')).toEqual({
      items: [
        { field: 'a', operator: '=', value: 'x|y' },
        { field: 'b', operator: '=', value: 'z' },
      ],
      logic: 'and',
    });
  });
});

const fieldArbitrary = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,20}$/);
/** Values rich in the characters the grammar cares about. */
const valueArbitrary = fc
  .array(
    fc.oneof(fc.constantFrom('^', '|', '=', ',', '\\', ' ', '\t', '\n', '_', '__'), fc.string()),
    {
      maxLength: 6,
    },
  )
  .map((parts) => parts.join(''));
const itemArbitrary: fc.Arbitrary<FilterItem> = fc.oneof(
  fc.record({
    field: fieldArbitrary,
    operator: fc.constantFrom(
      ...FILTER_OPERATORS.filter(
        (op) => op !== 'isAnyOf' && op !== 'isEmpty' && op !== 'isNotEmpty',
      ),
    ),
    value: valueArbitrary,
  }),
  fc.record({
    field: fieldArbitrary,
    operator: fc.constant('isAnyOf' as const),
    value: fc.array(valueArbitrary),
  }),
  fc.record({
    field: fieldArbitrary,
    operator: fc.constantFrom('isEmpty' as const, 'isNotEmpty' as const),
  }),
);
const logicArbitrary = fc.constantFrom<FilterLogic>('and', 'or');

describe('serializeFilter and parseFilter together [RULE-FILTER-1, SPEC-5.6]', () => {
  it('round-trip any items, as normalized', () => {
    fc.assert(
      fc.property(fc.array(itemArbitrary, { maxLength: 6 }), logicArbitrary, (items, logic) => {
        const normalized = items.map(normalizeFilterItem).filter((item) => item !== null);
        const parsed = parseFilter(serializeFilter(items, logic));
        expect(parsed.items).toEqual(normalized);
        expect(parsed.logic).toBe(normalized.length > 1 ? logic : 'or');
      }),
    );
  });

  it('write only one kind of unescaped separator', () => {
    fc.assert(
      fc.property(fc.array(itemArbitrary, { maxLength: 6 }), logicArbitrary, (items, logic) => {
        const unescaped = serializeFilter(items, logic).replace(/\\[\s\S]/g, '');
        expect(unescaped).not.toContain(logic === 'and' ? '|' : '^');
      }),
    );
  });

  it('normalize to trimmed, non-empty values', () => {
    fc.assert(
      fc.property(itemArbitrary, (item) => {
        const normalized = normalizeFilterItem(item);
        if (normalized === null) return;
        const values = normalized.value === undefined ? [] : [normalized.value].flat();
        for (const value of values) {
          expect(value).toBe(value.trim());
          expect(value).not.toBe('');
        }
      }),
    );
  });

  it('parse any text either to items or to a FilterSyntaxError', () => {
    fc.assert(
      fc.property(valueArbitrary, (text) => {
        try {
          parseFilter(text);
        } catch (error) {
          expect(error).toBeInstanceOf(FilterSyntaxError);
        }
      }),
    );
  });
});

describe('order by [RULE-FILTER-3]', () => {
  it('writes - in front for descending', () => {
    expect(
      serializeOrderBy([
        { field: 'last_action_taken', sort: 'desc' },
        { field: 'id', sort: 'asc' },
      ]),
    ).toEqual(['-last_action_taken', 'id']);
    expect(serializeOrderBy([])).toEqual([]);
    expect(() => serializeOrderBy([{ field: '-id', sort: 'asc' }])).toThrow(FilterSyntaxError);
  });

  it('reads entries, comma-separated names and blanks', () => {
    expect(parseOrderBy('-last_action_taken')).toEqual([
      { field: 'last_action_taken', sort: 'desc' },
    ]);
    expect(parseOrderBy(['-a, b', ' ', 'c'])).toEqual([
      { field: 'a', sort: 'desc' },
      { field: 'b', sort: 'asc' },
      { field: 'c', sort: 'asc' },
    ]);
    expect(parseOrderBy([])).toEqual([]);
  });

  it('names a bad entry', () => {
    expect(() => parseOrderBy(['--a'])).toThrow("Invalid order-by entry '--a': not a field name");
    expect(() => parseOrderBy(['a b'])).toThrow(FilterSyntaxError);
    expect(() => parseOrderBy(['-'])).toThrow(FilterSyntaxError);
  });

  it('round-trips', () => {
    const orderBy: fc.Arbitrary<OrderByItem[]> = fc.array(
      fc.record({ field: fieldArbitrary, sort: fc.constantFrom('asc' as const, 'desc' as const) }),
    );
    fc.assert(
      fc.property(orderBy, (items) => {
        expect(parseOrderBy(serializeOrderBy(items))).toEqual(items);
      }),
    );
  });
});
