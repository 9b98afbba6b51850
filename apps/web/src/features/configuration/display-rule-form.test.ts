import type { TDataDisplayRuleView } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { configurationTab, visibleConfigurationTabs } from './configuration-page';
import {
  emptyRuleValues,
  ruleAudience,
  ruleCreateBody,
  rulePatchBody,
  ruleUnitLabel,
  ruleValuesOf,
  toggleHiddenField,
  DISPLAY_RULE_FORM_FIELDS,
} from './display-rule-form';
import { saveFailure } from './form-fields';

const stored: TDataDisplayRuleView = {
  id: 'r1',
  role_id: 'role-1',
  role_name: 'Viewer',
  degrees_unit: null,
  temperature_decimals: 1,
  hidden_fields: ['carrier', 'primary_reference'],
  created: '2025-01-01T00:00:00Z',
  last_modified: '2025-01-01T00:00:00Z',
};

describe('display rule form [FEAT-DISPLAY-RULES]', () => {
  it('a new rule is for everyone: no role_id in the body', () => {
    expect(ruleCreateBody(emptyRuleValues())).toEqual({
      degrees_unit: null,
      temperature_decimals: 1,
      hidden_fields: [],
    });
    expect(
      ruleCreateBody({
        role_id: 'role-2',
        degrees_unit: 'F',
        temperature_decimals: 2,
        hidden_fields: ['primary_reference'],
      }),
    ).toEqual({
      role_id: 'role-2',
      degrees_unit: 'F',
      temperature_decimals: 2,
      hidden_fields: ['primary_reference'],
    });
  });

  it('an edit sends only what changed', () => {
    const values = ruleValuesOf(stored);
    expect(values.hidden_fields).toEqual(['primary_reference', 'carrier']);
    expect(rulePatchBody(stored, values)).toEqual({ rule_id: 'r1' });
    expect(rulePatchBody(stored, { ...values, degrees_unit: 'C', hidden_fields: [] })).toEqual({
      rule_id: 'r1',
      degrees_unit: 'C',
      hidden_fields: [],
    });
    expect(
      rulePatchBody({ ...stored, degrees_unit: 'F' }, { ...values, temperature_decimals: 0 }),
    ).toEqual({ rule_id: 'r1', degrees_unit: null, temperature_decimals: 0 });
  });

  it('ticks and unticks fields in their usual order', () => {
    expect(toggleHiddenField(['carrier'], 'primary_reference', true)).toEqual([
      'primary_reference',
      'carrier',
    ]);
    expect(toggleHiddenField(['primary_reference', 'carrier'], 'carrier', false)).toEqual([
      'primary_reference',
    ]);
  });

  it('names the audience and the unit', () => {
    expect(ruleAudience(stored)).toBe('Viewer');
    expect(ruleAudience({ role_id: null, role_name: null })).toBe('Everyone');
    expect(ruleUnitLabel(null)).toBe("Each user's own");
    expect(ruleUnitLabel('F')).toBe('°F');
  });

  it('puts the 409 for a second rule of a role under the role select', () => {
    const message = 'This role has a rule already; change it with PATCH';
    const conflict = new ApiError(409, 'CONFLICT', message, { role_id: message });
    expect(saveFailure(conflict, DISPLAY_RULE_FORM_FIELDS)).toEqual({
      fields: { role_id: 'This role has a rule already; change it with PATCH' },
      message: null,
    });
  });
});

describe('configuration tabs [FEAT-DISPLAY-RULES]', () => {
  it('shows Display rules to administrators only', () => {
    expect(
      visibleConfigurationTabs({ displayRules: false, evidence: true }).map((t) => t.value),
    ).not.toContain('display-rules');
    const all = visibleConfigurationTabs({ displayRules: true, evidence: true });
    expect(all.map((t) => t.value)).toContain('display-rules');
    expect(configurationTab('display-rules', all)).toBe('display-rules');
    expect(
      configurationTab(
        'display-rules',
        visibleConfigurationTabs({ displayRules: false, evidence: true }),
      ),
    ).toBe('products');
  });

  it('shows Evidence to those who may verify it only', () => {
    const without = visibleConfigurationTabs({ displayRules: true, evidence: false });
    expect(without.map((t) => t.value)).not.toContain('evidence');
    expect(configurationTab('evidence', without)).toBe('products');
    const withIt = visibleConfigurationTabs({ displayRules: false, evidence: true });
    expect(configurationTab('evidence', withIt)).toBe('evidence');
  });
});
