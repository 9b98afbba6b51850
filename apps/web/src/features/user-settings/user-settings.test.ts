import type { TPermissionName, TUser } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { notificationFlags } from './components/notification-settings-dialog';
import { adminLinks } from './components/settings-menu-list';

function user(permissions: TPermissionName[], extra: Partial<TUser> = {}): TUser {
  return {
    id: 'u1',
    username: 'someone',
    role_memberships: [],
    current_session_permissions: permissions,
    settings: { degrees_unit: 'C', timezone: 'UTC' },
    org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
    has_agreed_to_tos: true,
    organizations: [
      { id: 'o1', name: 'One' },
      { id: 'o2', name: 'Two' },
    ],
    last_session_org_id: 'o1',
    ...extra,
  };
}

const linkLabels = (u: TUser) => adminLinks(u).map((link) => `${link.label} ${link.to}`);

describe('settings menu admin links [SPEC-2.7]', () => {
  it('shows none without admin permissions', () => {
    expect(linkLabels(user(['sysDataRead']))).toEqual([]);
  });

  it('shows API Keys, Manage Users, Webhooks and Audit Trail Review with sysAdminUser', () => {
    expect(linkLabels(user(['sysAdminUser']))).toEqual([
      'API Keys /organization/apikeys',
      'Manage Users /organization/admin',
      'Webhooks /organization/webhooks',
      'Audit Trail Review /audit-review',
    ]);
  });

  it('shows Assign Tags with sysAssignTags and Server Administration for a server admin', () => {
    expect(linkLabels(user(['sysAssignTags'], { is_server_admin: true }))).toEqual([
      'Assign Tags /organization/assign-tags',
      'Server Administration /serveradmin',
    ]);
  });
});

describe('notification settings [SPEC-2.7]', () => {
  it('reads both switches from the lists holding the session organization', () => {
    const u = user([], {
      org_settings: {
        alarm_notify_my_scans_orgs: ['o1', 'o2'],
        alarm_notify_any_scans_orgs: ['o2'],
      },
    });
    expect(notificationFlags(u)).toEqual({ myScans: true, anyScans: false });
    expect(notificationFlags({ ...u, last_session_org_id: 'o2' })).toEqual({
      myScans: true,
      anyScans: true,
    });
  });

  it('is off without a session organization', () => {
    const u = user([], {
      last_session_org_id: null,
      org_settings: { alarm_notify_my_scans_orgs: ['o1'], alarm_notify_any_scans_orgs: ['o1'] },
    });
    expect(notificationFlags(u)).toEqual({ myScans: false, anyScans: false });
  });
});
