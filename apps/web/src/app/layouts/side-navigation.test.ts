import type { TPermissionName, TUser } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { visibleNavItems } from './side-navigation';

function user(permissions: TPermissionName[], extra: Partial<TUser> = {}): TUser {
  return {
    id: 'u1',
    username: 'someone',
    role_memberships: [],
    current_session_permissions: permissions,
    settings: { degrees_unit: 'C', timezone: 'UTC' },
    org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
    has_agreed_to_tos: true,
    ...extra,
  };
}

const labels = (u: TUser | null) => visibleNavItems(u).map((item) => item.label);

describe('side navigation items [SPEC-2.4, SPEC-6.1]', () => {
  it('always shows Dashboard and All Records', () => {
    expect(labels(user([]))).toEqual(['Dashboard', 'All Records']);
    expect(labels(null)).toEqual(['Dashboard', 'All Records']);
  });

  it('shows All Devices and Configuration with sysAdminUser', () => {
    expect(labels(user(['sysAdminUser']))).toEqual([
      'Dashboard',
      'All Records',
      'All Devices',
      'Configuration',
    ]);
  });

  it('shows Lanes & carriers with sysDataRead', () => {
    expect(labels(user(['sysDataRead']))).toEqual(['Dashboard', 'All Records', 'Lanes & carriers']);
    expect(visibleNavItems(user(['sysDataRead']))[2]?.to).toBe('/kpis');
  });

  it('shows Configuration with sysAdminLoc', () => {
    expect(labels(user(['sysAdminLoc']))).toEqual(['Dashboard', 'All Records', 'Configuration']);
  });

  it('links to the spec paths', () => {
    expect(visibleNavItems(user(['sysAdminUser'])).map((item) => item.to)).toEqual([
      '/',
      '/allrecords',
      '/alldevices',
      '/configuration',
    ]);
  });
});
