import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { allCalls, type CallDef } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { formattedPermissionsTable, permissionsTable } from '../src/http/permissions-table';

describe('docs/permissions.md [FEAT-ARCHITECTURE, SPEC-6.1]', () => {
  it('is the table generated from the contract (run scripts/write-permissions.ts when stale)', async () => {
    const file = path.join(REPO_ROOT, 'docs', 'permissions.md');
    expect(await readFile(file, 'utf8')).toBe(await formattedPermissionsTable(file));
  });

  it('lists every call once, with the roles holding its permission', () => {
    const table = permissionsTable();
    for (const call of allCalls as readonly CallDef[]) {
      expect(table).toContain(`| ${call.method} | \`${call.path}\` |`);
    }
    expect(table).toMatch(
      /\| POST \| `\/api\/keys\/generate\/` \| session cookie or user token \| `sysAdminUser` \| Administrator \|/,
    );
    expect(table).toMatch(
      /\| POST \| `\/api\/auth\/orgs\/` \|[^\n]*\| none \(server administrators only\) \|/,
    );
  });
});
