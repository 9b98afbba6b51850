import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, PERMISSION_NAMES, ZPermissionName } from './permissions';

describe('permission names (spec section 6) [SPEC-6.1]', () => {
  it('has exactly the 31 names of the spec, each once', () => {
    expect(PERMISSION_NAMES).toHaveLength(31);
    expect(new Set(PERMISSION_NAMES).size).toBe(31);
    expect(ZPermissionName.options).toEqual([...PERMISSION_NAMES]);
  });

  it('holds the names the interface acts on and the first and last of the list', () => {
    for (const name of [
      'sysAdminOrgInfo',
      'sysAdminUser',
      'sysAdminLoc',
      'sysAssignTags',
      'readerEditRefShip',
      'rulesView',
      'awsPacketUpload',
    ]) {
      expect(PERMISSION_NAMES).toContain(name);
    }
    expect(PERMISSION_NAMES[0]).toBe('sysAdminOrgInfo');
    expect(PERMISSION_NAMES[30]).toBe('awsPacketUpload');
  });

  it('rejects a name that is not in the list', () => {
    expect(ZPermissionName.safeParse('sysAdminEverything').success).toBe(false);
    expect(ZPermissionName.safeParse('sysadminuser').success).toBe(false);
  });

  it('built-in roles only use known names; Administrator holds all of them', () => {
    expect(BUILT_IN_ROLES.Administrator).toEqual(PERMISSION_NAMES);
    for (const names of Object.values(BUILT_IN_ROLES)) {
      for (const name of names) expect(PERMISSION_NAMES).toContain(name);
    }
  });
});
