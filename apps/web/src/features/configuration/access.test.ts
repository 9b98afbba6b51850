import type { TPermissionName, TUser } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { configurationAccess } from './access';

function user(permissions: TPermissionName[]): TUser {
  return {
    id: 'u1',
    username: 'someone',
    role_memberships: [],
    current_session_permissions: permissions,
    settings: { degrees_unit: 'C', timezone: 'UTC' },
    org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
    has_agreed_to_tos: true,
  };
}

describe('configuration access [SPEC-6.1, SPEC-2.4]', () => {
  it('hides the page without sysAdminLoc or sysAdminUser', () => {
    expect(configurationAccess(null).view).toBe(false);
    expect(configurationAccess(user(['sysDataRead', 'sysConfigCreate'])).view).toBe(false);
    expect(configurationAccess(user(['sysAdminUser'])).view).toBe(true);
  });

  it('lets a location administrator manage travel locations and the geo-fence only', () => {
    expect(configurationAccess(user(['sysAdminLoc']))).toEqual({
      view: true,
      createProducts: false,
      editProducts: false,
      createCarriers: false,
      editCarriers: false,
      createTravelLocations: true,
      editTravelLocations: true,
      editGeoFence: true,
    });
  });

  it('follows the permissions of each call', () => {
    const access = configurationAccess(user(['sysAdminUser', 'sysConfigCreate']));
    expect(access).toMatchObject({
      createProducts: true,
      editProducts: false,
      createCarriers: true,
      createTravelLocations: true,
      editTravelLocations: false,
      editGeoFence: true,
    });
  });

  it('treats a locked user as signed out', () => {
    expect(configurationAccess({ ...user(['sysAdminUser']), is_locked: true }).view).toBe(false);
  });
});
