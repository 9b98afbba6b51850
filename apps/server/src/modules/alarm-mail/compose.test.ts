import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressKey,
  planMessages,
  renderTemplate,
  subjectLine,
  type PersonSource,
  type SettingSource,
} from './compose';

const ADDRESSES = ['a@x.test', 'A@X.test', ' b@x.test', 'c@x.test', 'd@x.test', 'e@x.test'];
const addressArb = fc.constantFrom(...ADDRESSES);
const listArb = fc.array(addressArb, { maxLength: 4 });

const settingsArb: fc.Arbitrary<SettingSource[]> = fc
  .array(
    fc.record({
      status: fc.constantFrom('Enabled' as const, 'Test' as const),
      to: listArb,
      cc: listArb,
      bcc: listArb,
    }),
    { maxLength: 4 },
  )
  .map((list) =>
    list.map((s, i) => ({ ...s, id: i + 1, subjectTemplate: null, bodyTemplate: null })),
  );
const peopleArb: fc.Arbitrary<PersonSource[]> = fc.array(
  fc.record({ email: addressArb, source: fc.constantFrom('any', 'mine', 'recipients') }),
  { maxLength: 8 },
);

describe('planMessages [RULE-NOTIFY-2]', () => {
  it('reaches every named person exactly once, never through a Test setting', () => {
    fc.assert(
      fc.property(settingsArb, peopleArb, (settings, people) => {
        const messages = planMessages(settings, people);
        const reached = messages
          .filter((m) => !m.test)
          .flatMap((m) => [...m.to, ...m.cc, ...m.bcc])
          .map(addressKey);
        expect(new Set(reached).size).toBe(reached.length);
        const named = new Set([
          ...settings
            .filter((s) => s.status === 'Enabled')
            .flatMap((s) => [...s.to, ...s.cc, ...s.bcc]),
          ...people.map((p) => p.email),
        ]);
        expect(new Set(reached)).toEqual(new Set([...named].map(addressKey)));
        expect(messages.filter((m) => m.test)).toHaveLength(
          settings.filter((s) => s.status === 'Test').length,
        );
        expect(new Set(messages.map((m) => m.key)).size).toBe(messages.length);
      }),
    );
  });

  it('names every source of a person in one message', () => {
    const [message] = planMessages(
      [],
      [
        { email: 'A@x.test', source: 'any alarm in this organization' },
        { email: ' a@X.test ', source: "notification rule 'R'" },
        { email: 'a@x.test', source: 'any alarm in this organization' },
      ],
    );
    expect(message).toMatchObject({
      key: 'person:a@x.test',
      to: ['A@x.test'],
      comment: "any alarm in this organization; notification rule 'R'",
    });
  });
});

describe('templates [RULE-NOTIFY-2]', () => {
  it('replaces known placeholders, keeps unknown ones, keeps subjects on one line', () => {
    expect(
      renderTemplate('{record_id} at {highest} °C {unknown}', { record_id: '7', highest: '9.1' }),
    ).toBe('7 at 9.1 °C {unknown}');
    expect(subjectLine('Alarm\r\non {record_id}\tnow ')).toBe('Alarm on {record_id} now');
  });
});
