import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { REPO_ROOT } from '../src/config';
import { openApiDocument } from './openapi-document';

/**
 * Write the OpenAPI document of every registered call to docs/openapi.json
 * (committed; a test fails when it is stale), then the generated client's types
 * examples/integration/schema.d.ts from it (test/integration-example.test.ts).
 *   npm run openapi -w @coldtrace/server
 */
export const OPENAPI_FILE = path.join(REPO_ROOT, 'docs', 'openapi.json');
/** The types of the generated client of docs/api.md (openapi-typescript). */
export const CLIENT_TYPES = 'examples/integration/schema.d.ts';

async function main(): Promise<void> {
  const json = JSON.stringify(await openApiDocument(), null, 2);
  const options = (await resolveConfig(OPENAPI_FILE)) ?? {};
  await writeFile(OPENAPI_FILE, await format(json, { ...options, filepath: OPENAPI_FILE }));
  process.stdout.write(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}\n`);
  const cli = path.join(REPO_ROOT, 'node_modules/openapi-typescript/bin/cli.js');
  execFileSync(process.execPath, [cli, 'docs/openapi.json', '-o', CLIENT_TYPES], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

await main();
