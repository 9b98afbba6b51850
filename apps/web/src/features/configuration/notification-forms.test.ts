import { describe, expect, it } from 'vitest';
import {
  describeRule,
  emptyCondition,
  emptySettingValues,
  escalationText,
  parseAddressList,
  ruleBody,
  ruleValuesOf,
  settingBody,
  settingValuesOf,
  validateRuleForm,
  validateSettingForm,
} from './notification-forms';

describe('notification setting form [RULE-NOTIFY-2, RULE-NOTIFY-3]', () => {
  it('splits address lists on commas, semicolons, spaces and line breaks', () => {
    expect(parseAddressList(' a@x.test, b@x.test;\nc@x.test  d@x.test ,')).toEqual([
      'a@x.test',
      'b@x.test',
      'c@x.test',
      'd@x.test',
    ]);
    expect(parseAddressList('  ')).toEqual([]);
  });

  it('names a bad address and asks for one unless Disabled', () => {
    const values = { ...emptySettingValues(), cc_list: 'ok@x.test, nope' };
    expect(validateSettingForm(values)).toEqual({ cc_list: "'nope' is not an e-mail address" });
    expect(validateSettingForm(emptySettingValues())).toEqual({
      to_list: 'Add at least one address (or set the status to Disabled)',
    });
    expect(validateSettingForm({ ...emptySettingValues(), status: 'Disabled' })).toEqual({});
  });

  it('turns blanks into null and lists into arrays, and back', () => {
    const body = settingBody({
      ...emptySettingValues(),
      notification_type: 'Departure',
      product_name: ' Insulin ',
      to_list: 'a@x.test b@x.test',
      custom_template_subject: 'Departed {record_id}',
    });
    expect(body).toEqual({
      notification_type: 'Departure',
      status: 'Enabled',
      // Only Summary settings have a schedule.
      schedule: null,
      product_name: 'Insulin',
      carrier_name: null,
      origin: null,
      destination: null,
      to_list: ['a@x.test', 'b@x.test'],
      cc_list: [],
      bcc_list: [],
      custom_template_subject: 'Departed {record_id}',
      custom_template_email: null,
      comment: null,
      // Only Alarm settings escalate: other types clear it.
      remind_after_minutes: null,
      escalate_after_minutes: null,
      escalation_emails: [],
    });
    expect(settingValuesOf({ ...body, id: '1' })).toMatchObject({
      product_name: 'Insulin',
      to_list: 'a@x.test, b@x.test',
      carrier_name: '',
    });
  });
});

describe('Summary settings (issue 15) [FEAT-SUMMARY-MAIL]', () => {
  const summary = {
    ...emptySettingValues(),
    notification_type: 'Summary' as const,
    to_list: 'qa@x.test',
  };

  it('needs a schedule, sends it, and reads it back', () => {
    expect(validateSettingForm(summary)).toEqual({ schedule: 'Choose daily or weekly' });
    const values = { ...summary, schedule: 'WEEKLY' as const, carrier_name: 'DHL' };
    expect(validateSettingForm(values)).toEqual({});
    const body = settingBody(values);
    expect(body).toMatchObject({
      notification_type: 'Summary',
      schedule: 'WEEKLY',
      carrier_name: 'DHL',
      remind_after_minutes: null,
      escalation_emails: [],
    });
    expect(settingValuesOf({ ...body, id: '1' })).toMatchObject({ schedule: 'WEEKLY' });
  });

  it('sends no schedule once the type is no longer Summary', () => {
    const values = { ...summary, schedule: 'DAILY' as const, notification_type: 'Alarm' as const };
    expect(validateSettingForm(values)).toEqual({});
    expect(settingBody(values).schedule).toBeNull();
  });
});

describe('escalation fields (issue 14) [FEAT-ESCALATION]', () => {
  const alarm = { ...emptySettingValues(), to_list: 'qa@x.test' };

  it('sends whole minutes and the second list for an Alarm setting, and reads them back', () => {
    const values = {
      ...alarm,
      remind_after_minutes: ' 30 ',
      escalate_after_minutes: '120',
      escalation_emails: 'boss@x.test; qp@x.test',
    };
    expect(validateSettingForm(values)).toEqual({});
    const body = settingBody(values);
    expect(body).toMatchObject({
      remind_after_minutes: 30,
      escalate_after_minutes: 120,
      escalation_emails: ['boss@x.test', 'qp@x.test'],
    });
    expect(settingValuesOf({ ...body, id: '1' })).toMatchObject({
      remind_after_minutes: '30',
      escalate_after_minutes: '120',
      escalation_emails: 'boss@x.test, qp@x.test',
    });
    expect(settingBody(alarm)).toMatchObject({
      remind_after_minutes: null,
      escalate_after_minutes: null,
      escalation_emails: [],
    });
  });

  it('says the escalation in the settings table', () => {
    const base = { notification_type: 'Alarm' as const, status: 'Enabled' as const };
    expect(escalationText(base)).toBe('None');
    expect(escalationText({ ...base, remind_after_minutes: 30 })).toBe('Remind after 30 min');
    expect(
      escalationText({
        ...base,
        remind_after_minutes: 30,
        escalate_after_minutes: 120,
        escalation_emails: ['boss@x.test'],
      }),
    ).toBe('Remind after 30 min; escalate after 120 min to boss@x.test');
    expect(
      escalationText({ ...base, escalate_after_minutes: 60, escalation_emails: ['b@x.test'] }),
    ).toBe('Escalate after 60 min to b@x.test');
  });

  it('names each bad field as the server would', () => {
    const check = (extra: Partial<typeof alarm>) => validateSettingForm({ ...alarm, ...extra });
    expect(Object.keys(check({ remind_after_minutes: '-5' }))).toEqual(['remind_after_minutes']);
    expect(Object.keys(check({ remind_after_minutes: '1.5' }))).toEqual(['remind_after_minutes']);
    expect(Object.keys(check({ remind_after_minutes: '0' }))).toEqual(['remind_after_minutes']);
    expect(Object.keys(check({ remind_after_minutes: '10081' }))).toEqual(['remind_after_minutes']);
    expect(check({ escalate_after_minutes: '60' })).toEqual({
      escalation_emails: 'Add at least one address to escalate to',
    });
    expect(Object.keys(check({ escalation_emails: 'boss@x.test' }))).toEqual([
      'escalate_after_minutes',
    ]);
    expect(Object.keys(check({ escalation_emails: 'boss', escalate_after_minutes: '60' }))).toEqual(
      ['escalation_emails'],
    );
    expect(
      check({
        remind_after_minutes: '60',
        escalate_after_minutes: '60',
        escalation_emails: 'boss@x.test',
      }),
    ).toEqual({ escalate_after_minutes: 'Must be later than the reminder (60 minutes)' });
    // Hidden for other types: not checked, not sent.
    expect(check({ notification_type: 'Arrival', remind_after_minutes: 'soon' })).toEqual({});
  });
});

describe('notification rule form [RULE-NOTIFY-2, RULE-NOTIFY-3]', () => {
  it('needs a name, a person and a value for every EQUALS / ANY_OF condition', () => {
    expect(
      validateRuleForm({ name: ' ', users: [], combinator: 'AND', conditions: [emptyCondition()] }),
    ).toEqual({
      name: 'A name is required',
      users: 'Choose at least one person to notify',
      conditions: 'Condition 1 needs a value',
    });
  });

  it('builds the rule group and describes it in words', () => {
    const body = ruleBody({
      name: ' Insulin ',
      users: ['u1'],
      combinator: 'AND',
      conditions: [
        {
          operator: 'IS',
          field: 'product_designation',
          function_operator: 'EQUALS',
          value: ' Insulin ',
        },
        { operator: 'NOT', field: 'carrier', function_operator: 'ANY_OF', value: 'DHL, UPS,' },
        { operator: 'IS', field: 'carrier', function_operator: 'ALWAYS_TRUE', value: 'ignored' },
      ],
    });
    expect(body.root_rule.unary_children).toEqual([
      {
        operator: 'IS',
        function: { field: 'product_designation', function_operator: 'EQUALS', value: 'Insulin' },
      },
      {
        operator: 'NOT',
        function: { field: 'carrier', function_operator: 'ANY_OF', value: ['DHL', 'UPS'] },
      },
      { operator: 'IS', function: { function_operator: 'ALWAYS_TRUE' } },
    ]);
    const rule = { id: '1', ...body };
    expect(describeRule(rule)).toBe(
      'Product is Insulin and Carrier is not any of DHL, UPS and always',
    );
    expect(ruleValuesOf(rule).conditions[1]).toEqual({
      operator: 'NOT',
      field: 'carrier',
      function_operator: 'ANY_OF',
      value: 'DHL, UPS',
    });
    expect(describeRule({ ...rule, root_rule: { operator: 'AND', unary_children: [] } })).toBe(
      'Every record',
    );
  });
});
