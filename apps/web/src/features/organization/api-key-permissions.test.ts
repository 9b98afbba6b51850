import type { TRole } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { permissionsText } from './api-key-permissions';

const role = (name: string, permission_names: string[]): TRole => ({
  id: name,
  name,
  permission_names,
  created_by_organization_id: null,
});
const roles = [
  role('Viewer', ['sysDataRead', 'sysReportView']),
  role('Manager', ['sysDataRead', 'sysReportView', 'sysAdminLoc']),
];

describe('permissionsText [SPEC-7.6]', () => {
  it('names the role with exactly these permissions, in any order', () => {
    expect(permissionsText(['sysAdminLoc', 'sysDataRead', 'sysReportView'], roles)).toBe(
      'Same as Manager',
    );
    expect(permissionsText(['sysReportView', 'sysDataRead'], roles)).toBe('Same as Viewer');
  });

  it('counts the permissions when no role has exactly them', () => {
    expect(permissionsText(['sysDataRead'], roles)).toBe('1 permission');
    expect(permissionsText(['sysDataRead', 'sysReportView', 'notifyReceive'], roles)).toBe(
      '3 permissions',
    );
    expect(permissionsText(['sysDataRead', 'sysReportView'])).toBe('2 permissions');
  });
});
