import madge from 'madge';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';

/**
 * Importing one function should not load most of the server (issue 38): the files a
 * device upload's entry reaches at run time. Type-only imports are left out (they are
 * erased); the contract and domain packages are not server files.
 */
const SERVER_SRC = path.join(REPO_ROOT, 'apps/server/src');

async function runtimeClosure(entry: string): Promise<string[]> {
  const graph = await madge(path.join(SERVER_SRC, entry), {
    baseDir: SERVER_SRC,
    tsConfig: path.join(REPO_ROOT, 'apps/server/tsconfig.json'),
    fileExtensions: ['ts'],
    detectiveOptions: { ts: { skipTypeImports: true } },
  });
  return Object.keys(graph.obj());
}

describe('import closures [FEAT-ARCHITECTURE]', () => {
  it('a device upload (ingest/xt1.ts) loads under 80 server files at run time', async () => {
    const files = await runtimeClosure('modules/ingest/xt1.ts');
    expect(files).toContain('modules/ingest/pipeline.ts');
    expect(files.length, files.join('\n')).toBeLessThan(80);
    // No route or plugin rides along with a function.
    expect(files.filter((f) => /(^|\/)(routes|plugin)\.ts$/.test(f))).toEqual([]);
  });
});
