import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgePackages } from './check';
import { collectShippedPackages, declaredLicense, type ShippedPackage } from './collect';
import { isExpressionAllowed, judgeLicense, parseLicenseExpression } from './spdx';

const allowed = (text: string) => isExpressionAllowed(parseLicenseExpression(text));

describe('the licence allow-list [FEAT-LICENCES]', () => {
  it('passes the permissive licences, in any case, with "or later" or an exception', () => {
    for (const id of ['MIT', 'ISC', 'Apache-2.0', 'BSD-3-Clause', '0BSD', 'BlueOak-1.0.0']) {
      expect(allowed(id), id).toBe(true);
    }
    expect(allowed('mit')).toBe(true);
    expect(allowed('Apache-2.0+')).toBe(true);
    expect(allowed('Apache-2.0 WITH LLVM-exception')).toBe(true);
  });

  it('fails copyleft, non-open-source and own licences', () => {
    for (const id of [
      'GPL-3.0-only',
      'AGPL-3.0-or-later',
      'LGPL-2.1-only',
      'Hippocratic-2.1',
      'SSPL-1.0',
      'BUSL-1.1',
      'LicenseRef-Proprietary',
      'UNLICENSED',
    ]) {
      expect(allowed(id), id).toBe(false);
    }
    // An exception grants more, never less: the base licence decides.
    expect(allowed('GPL-2.0-only WITH Classpath-exception-2.0')).toBe(false);
  });

  it('OR passes when one choice passes, AND only when all do', () => {
    expect(allowed('MIT OR GPL-3.0-or-later')).toBe(true);
    expect(allowed('(GPL-3.0-only OR Hippocratic-2.1)')).toBe(false);
    expect(allowed('MIT AND Zlib')).toBe(true);
    expect(allowed('MIT AND GPL-3.0-only')).toBe(false);
  });

  it('binds AND tighter than OR, and follows parentheses', () => {
    // GPL OR (MIT AND Zlib): passes by the second choice.
    expect(allowed('GPL-3.0-only OR MIT AND Zlib')).toBe(true);
    // (GPL OR MIT) AND Hippocratic: the AND fails.
    expect(allowed('(GPL-3.0-only OR MIT) AND Hippocratic-2.1')).toBe(false);
    // MIT AND (GPL OR Zlib): passes with Zlib.
    expect(allowed('MIT AND (GPL-3.0-only OR Zlib)')).toBe(true);
    expect(parseLicenseExpression('A OR B AND C')).toEqual({
      kind: 'or',
      left: { kind: 'license', id: 'A' },
      right: {
        kind: 'and',
        left: { kind: 'license', id: 'B' },
        right: { kind: 'license', id: 'C' },
      },
    });
  });

  it('says why a declared licence fails: missing, not SPDX, not allowed', () => {
    expect(judgeLicense('MIT')).toEqual({ ok: true });
    expect(judgeLicense(undefined)).toMatchObject({ ok: false, reason: 'missing' });
    expect(judgeLicense('  ')).toMatchObject({ ok: false, reason: 'missing' });
    for (const text of [
      'MIT/X11',
      'BSD',
      'Apache 2.0',
      'SEE LICENSE IN LICENSE.md',
      '(MIT',
      'MIT OR',
      'MIT AND AND ISC',
      'MIT WITH',
    ]) {
      const verdict = judgeLicense(text);
      // "BSD" and "Apache 2.0" parse as ids or fail as text: either way they do not pass.
      expect(verdict.ok, text).toBe(false);
    }
    expect(judgeLicense('SEE LICENSE IN LICENSE.md')).toMatchObject({ reason: 'not-spdx' });
    expect(judgeLicense('Hippocratic-2.1')).toMatchObject({ reason: 'not-allowed' });
  });
});

describe('the declared licence of a package.json [FEAT-LICENCES]', () => {
  it('reads `license`, its old object form and the old `licenses` list (a choice)', () => {
    expect(declaredLicense({ license: 'ISC' })).toBe('ISC');
    expect(declaredLicense({ license: { type: 'MIT' } })).toBe('MIT');
    expect(declaredLicense({ licenses: [{ type: 'MIT' }] })).toBe('MIT');
    expect(declaredLicense({ licenses: [{ type: 'MIT' }, { type: 'GPL-2.0' }] })).toBe(
      '(MIT OR GPL-2.0)',
    );
    expect(declaredLicense({})).toBeUndefined();
  });
});

describe('exceptions [FEAT-LICENCES]', () => {
  const pkg = (name: string, version: string, license?: string): ShippedPackage => ({
    name,
    version,
    license,
    repository: undefined,
    dir: `node_modules/${name}`,
    apps: new Set(['server']),
  });
  const exception = (license: string) => ({ license, evidence: 'LICENSE', reason: 'read' });

  it('count for that version only, and must name an allowed licence', () => {
    const { judged, unusedExceptions } = judgePackages(
      [pkg('a', '1.0.0'), pkg('a', '2.0.0'), pkg('b', '1.0.0'), pkg('c', '1.0.0', 'MIT')],
      {
        'a@1.0.0': exception('MIT'),
        'b@1.0.0': exception('GPL-3.0-only'),
        'z@1.0.0': exception('MIT'),
      },
    );
    const problem = (name: string, version: string) =>
      judged.find((p) => p.name === name && p.version === version)!.problem;
    expect(problem('a', '1.0.0')).toBeUndefined();
    expect(problem('a', '2.0.0')).toContain('declares no licence');
    expect(problem('b', '1.0.0')).toContain('GPL-3.0-only is not on the allow-list');
    expect(problem('c', '1.0.0')).toBeUndefined();
    expect(unusedExceptions).toEqual(['z@1.0.0']);
  });
});

describe('the shipped packages [FEAT-LICENCES]', () => {
  let root: string;
  const write = async (dir: string, manifest: object) => {
    await mkdir(path.join(root, dir), { recursive: true });
    await writeFile(path.join(root, dir, 'package.json'), JSON.stringify(manifest));
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'coldtrace-licenses-'));
    await write('apps/server', {
      name: '@x/server',
      dependencies: { '@x/shared': '*', a: '1' },
      optionalDependencies: { 'not-on-this-platform': '1' },
      devDependencies: { 'dev-tool': '1' },
    });
    await write('apps/web', { name: '@x/web', dependencies: { '@x/shared': '*', b: '1' } });
    await write('packages/shared', { name: '@x/shared', dependencies: { c: '1' } });
    await mkdir(path.join(root, 'node_modules/@x'), { recursive: true });
    await symlink(
      path.join(root, 'packages/shared'),
      path.join(root, 'node_modules/@x/shared'),
      'dir',
    );
    await write('node_modules/a', {
      name: 'a',
      version: '1.0.0',
      license: 'MIT',
      repository: 'git+https://github.com/o/a.git',
      dependencies: { c: '2' },
      peerDependencies: { b: '1', 'peer-absent': '1' },
    });
    // a's own copy of c (another version), found before the top-level one.
    await write('node_modules/a/node_modules/c', { name: 'c', version: '2.0.0', license: 'ISC' });
    await write('node_modules/b', { name: 'b', version: '1.0.0', license: 'Apache-2.0' });
    await write('node_modules/c', { name: 'c', version: '1.0.0', license: 'MIT' });
    await write('node_modules/dev-tool', {
      name: 'dev-tool',
      version: '1.0.0',
      license: 'GPL-3.0',
    });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('follows production, installed optional and peer dependencies, through workspaces', () => {
    const { packages, missing } = collectShippedPackages(root);
    expect(
      packages.map((p) => ({
        id: `${p.name}@${p.version}`,
        license: p.license,
        apps: [...p.apps],
      })),
    ).toEqual([
      { id: 'a@1.0.0', license: 'MIT', apps: ['server'] },
      { id: 'b@1.0.0', license: 'Apache-2.0', apps: ['server', 'web'] },
      { id: 'c@1.0.0', license: 'MIT', apps: ['server', 'web'] },
      { id: 'c@2.0.0', license: 'ISC', apps: ['server'] },
    ]);
    expect(packages[0]!.repository).toBe('https://github.com/o/a');
    expect(missing).toEqual([]);
  });

  it('names a required dependency that is not installed', async () => {
    await write('node_modules/b', {
      name: 'b',
      version: '1.0.0',
      license: 'Apache-2.0',
      dependencies: { gone: '1' },
    });
    expect(collectShippedPackages(root).missing).toEqual(['gone (needed by b)']);
  });
});
