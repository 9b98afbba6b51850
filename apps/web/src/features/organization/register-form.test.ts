import { describe, expect, it } from 'vitest';
import { validateRegisterForm } from './register-form';

const filled = {
  username: 'nina',
  first_name: 'Nina',
  last_name: 'New',
  email: 'nina@example.test',
  organization_id: 'org',
  role_id: 'role',
};

describe('register form [SPEC-5.1, RULE-ACCOUNT-1]', () => {
  it('requires all six fields', () => {
    expect(validateRegisterForm(filled)).toEqual({});
    const empty = Object.fromEntries(Object.keys(filled).map((k) => [k, ' '])) as typeof filled;
    expect(Object.keys(validateRegisterForm(empty)).sort()).toEqual(Object.keys(filled).sort());
  });

  it('checks the e-mail address', () => {
    expect(validateRegisterForm({ ...filled, email: 'nina' })).toEqual({
      email: 'Enter an e-mail address such as name@example.com',
    });
  });
});
