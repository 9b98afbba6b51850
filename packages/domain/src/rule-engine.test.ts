import type { TRuleFunction, TRuleGroup, TUnaryRule } from '@coldtrace/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluateRuleFunction,
  evaluateRuleGroup,
  evaluateUnaryRule,
  negateUnaryRule,
  ruleValuesEqual,
  type RuleSubject,
} from './rule-engine';

const FIELDS = ['product_designation', 'carrier', 'program_name', 'high_threshold'] as const;
const WORDS = ['Insulin', 'insulin ', 'Vaccine', 'ACME', 'acme', '', '8', '8.0', '2'];

const subjectArb: fc.Arbitrary<RuleSubject> = fc.record({
  product_designation: fc.constantFrom(...WORDS),
  carrier: fc.constantFrom(...WORDS, null),
  program_name: fc.constantFrom(...WORDS),
  high_threshold: fc.constantFrom(8, 2, null),
});

const scalarArb = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(8, 2, 8.5));

const functionArb: fc.Arbitrary<TRuleFunction> = fc.oneof(
  fc.record({
    field: fc.constantFrom(...FIELDS, 'unknown_field'),
    function_operator: fc.constant('EQUALS' as const),
    value: scalarArb,
  }),
  fc.record({
    field: fc.constantFrom(...FIELDS),
    function_operator: fc.constant('ANY_OF' as const),
    value: fc.array(scalarArb, { maxLength: 4 }),
  }),
  fc.constant({ function_operator: 'ALWAYS_TRUE' as const }),
);

const unaryArb: fc.Arbitrary<TUnaryRule> = fc.record({
  function: functionArb,
  operator: fc.constantFrom('IS' as const, 'NOT' as const),
});

const childrenArb = fc.array(unaryArb, { maxLength: 6 });

describe('rule engine [RULE-NOTIFY-3]', () => {
  it('NOT negates and negating twice changes nothing (NOT NOT x == x)', () => {
    fc.assert(
      fc.property(unaryArb, subjectArb, (rule, subject) => {
        expect(evaluateUnaryRule(negateUnaryRule(rule), subject)).toBe(
          !evaluateUnaryRule(rule, subject),
        );
        expect(evaluateUnaryRule(negateUnaryRule(negateUnaryRule(rule)), subject)).toBe(
          evaluateUnaryRule(rule, subject),
        );
      }),
    );
  });

  it('an AND of ALWAYS_TRUE holds; with a NOT ALWAYS_TRUE it does not', () => {
    fc.assert(
      fc.property(fc.nat({ max: 6 }), subjectArb, (n, subject) => {
        const always: TUnaryRule = {
          operator: 'IS',
          function: { function_operator: 'ALWAYS_TRUE' },
        };
        expect(
          evaluateRuleGroup({ operator: 'AND', unary_children: Array(n).fill(always) }, subject),
        ).toBe(true);
        expect(
          evaluateRuleGroup(
            {
              operator: 'AND',
              unary_children: [...Array<TUnaryRule>(n).fill(always), negateUnaryRule(always)],
            },
            subject,
          ),
        ).toBe(false);
      }),
    );
  });

  it("De Morgan: AND of the children's negations == NOT (OR of the children), and the dual", () => {
    fc.assert(
      fc.property(childrenArb, subjectArb, (children, subject) => {
        const negated = children.map(negateUnaryRule);
        const group = (operator: 'AND' | 'OR', unary_children: TUnaryRule[]): TRuleGroup => ({
          operator,
          unary_children,
        });
        expect(evaluateRuleGroup(group('AND', negated), subject)).toBe(
          !evaluateRuleGroup(group('OR', children), subject),
        );
        expect(evaluateRuleGroup(group('OR', negated), subject)).toBe(
          !evaluateRuleGroup(group('AND', children), subject),
        );
      }),
    );
  });

  it('the order of the children does not matter', () => {
    fc.assert(
      fc.property(
        childrenArb,
        subjectArb,
        fc.constantFrom('AND' as const, 'OR' as const),
        (children, subject, operator) => {
          const reversed = [...children].reverse();
          expect(evaluateRuleGroup({ operator, unary_children: reversed }, subject)).toBe(
            evaluateRuleGroup({ operator, unary_children: children }, subject),
          );
        },
      ),
    );
  });

  it('ANY_OF one value is EQUALS that value; ANY_OF a list is the OR of EQUALS', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FIELDS),
        fc.array(scalarArb, { maxLength: 4 }),
        subjectArb,
        (field, values, subject) => {
          const anyOf = evaluateRuleFunction(
            { field, function_operator: 'ANY_OF', value: values },
            subject,
          );
          const ors = values.some((value) =>
            evaluateRuleFunction({ field, function_operator: 'EQUALS', value }, subject),
          );
          expect(anyOf).toBe(ors);
        },
      ),
    );
  });

  it('equality is symmetric', () => {
    const valueArb = fc.oneof(scalarArb, fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(valueArb, valueArb, (a, b) => {
        expect(ruleValuesEqual(a, b)).toBe(ruleValuesEqual(b, a));
      }),
    );
  });

  it('compares text trimmed and ignoring case, numbers as numbers', () => {
    const subject: RuleSubject = {
      product_designation: ' Insulin ',
      carrier: 'ACME',
      high_threshold: 8,
      po_number: '007',
    };
    const eq = (field: string, value: string | number) =>
      evaluateRuleFunction({ field, function_operator: 'EQUALS', value }, subject);
    expect(eq('product_designation', 'insulin')).toBe(true);
    expect(eq('product_designation', 'Insulin 2')).toBe(false);
    expect(eq('high_threshold', '8.0')).toBe(true);
    expect(eq('high_threshold', 8)).toBe(true);
    expect(eq('high_threshold', 9)).toBe(false);
    expect(eq('po_number', '7')).toBe(false);
    expect(eq('po_number', 7)).toBe(true);
    expect(eq('not_a_field', '')).toBe(false);
    expect(
      evaluateRuleGroup(
        {
          operator: 'AND',
          unary_children: [
            {
              operator: 'IS',
              function: { field: 'carrier', function_operator: 'ANY_OF', value: ['DHL', 'acme'] },
            },
            {
              operator: 'NOT',
              function: {
                field: 'product_designation',
                function_operator: 'EQUALS',
                value: 'Vaccine',
              },
            },
          ],
        },
        subject,
      ),
    ).toBe(true);
  });

  it('defaults: a group is AND, a unary rule is IS, a function is ALWAYS_TRUE; empty OR fails', () => {
    expect(evaluateRuleGroup({}, {})).toBe(true);
    expect(evaluateRuleGroup({ operator: 'OR', unary_children: [] }, {})).toBe(false);
    expect(evaluateUnaryRule({}, {})).toBe(true);
    expect(evaluateUnaryRule({ operator: 'NOT' }, {})).toBe(false);
  });
});
