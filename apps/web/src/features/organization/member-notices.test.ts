import type { TInvitation, TUserRegistration } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { registrationNotice, suspensionNotice } from './member-notices';

const invitation: TInvitation = {
  id: 'i1',
  organization_id: 'o1',
  email: 'nina@example.test',
  username: 'nina',
  first_name: 'Nina',
  last_name: 'New',
  role_id: 'r1',
  role_name: 'Viewer',
  invited_by: 'Ada Admin',
  created: '2026-01-01T00:00:00Z',
  expires: '2026-01-08T00:00:00Z',
};

describe('registration notice [RULE-ACCOUNT-1]', () => {
  it('says an invitation went out, naming the address the server invited', () => {
    const reply: TUserRegistration = { status: 'invited', invitation, user: null };
    expect(registrationNotice(reply, 'typed@example.test', 'Acme')).toBe(
      'Invitation sent to nina@example.test. They become a member when they accept it.',
    );
  });

  it('falls back to the typed address when the reply carries no invitation', () => {
    const reply: TUserRegistration = { status: 'invited', invitation: null, user: null };
    expect(registrationNotice(reply, 'typed@example.test', 'Acme')).toBe(
      'Invitation sent to typed@example.test. They become a member when they accept it.',
    );
  });

  it('says who was added directly (server administrators)', () => {
    const reply: TUserRegistration = {
      status: 'added',
      invitation: null,
      user: { id: 'u1', username: 'nina_b' },
    };
    expect(registrationNotice(reply, 'nina@example.test', 'Acme Cold Chain')).toBe(
      'nina_b is added to Acme Cold Chain.',
    );
  });
});

describe('suspension notice [RULE-ACCOUNT-1]', () => {
  it('names the member and the organization', () => {
    expect(suspensionNotice('nina', true, 'Acme')).toBe(
      "nina's membership is suspended: they can no longer act in Acme.",
    );
    expect(suspensionNotice('nina', false, 'Acme')).toBe('nina is active again in Acme.');
  });
});
