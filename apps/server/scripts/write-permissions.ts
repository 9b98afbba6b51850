import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../src/config';
import { formattedPermissionsTable } from '../src/http/permissions-table';

/** Write docs/permissions.md from the contract (a test fails when it is stale). */
export const PERMISSIONS_FILE = path.join(REPO_ROOT, 'docs', 'permissions.md');

await writeFile(PERMISSIONS_FILE, await formattedPermissionsTable(PERMISSIONS_FILE));
process.stdout.write(`wrote ${path.relative(process.cwd(), PERMISSIONS_FILE)}\n`);
