import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 12: the kernel (`src/kernel`) and the HTTP layer (`src/http`) sit
 * below every feature module. Neither may reach `src/modules/` by any chain of
 * relative imports (type-only imports and re-exports count: a type import is
 * still a dependency on the module's shape).
 */

const SRC = resolve(__dirname, '../src');
const MODULES = join(SRC, 'modules');

/** Source files (no tests) under a folder. */
function sourcesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./x` is `./x.ts` or `./x/index.ts`). */
function resolveRelative(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every relative import, re-export and dynamic import of a file, resolved. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => {
      const target = resolveRelative(file, name);
      if (target === null) throw new Error(`${relative(SRC, file)}: cannot resolve '${name}'`);
      return target;
    });
}

/**
 * The chains of imports from `roots` that end in `src/modules/`, as
 * "a.ts -> b.ts -> modules/x.ts"; empty when none does.
 */
function chainsIntoModules(roots: readonly string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const queue: { file: string; path: string[] }[] = roots.map((file) => ({ file, path: [file] }));
  while (queue.length > 0) {
    const { file, path } = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const target of importsOf(file)) {
      const chain = [...path, target];
      if (target.startsWith(MODULES + '/')) {
        found.push(chain.map((f) => relative(SRC, f)).join(' -> '));
      } else if (!seen.has(target)) {
        queue.push({ file: target, path: chain });
      }
    }
  }
  return found;
}

describe('the kernel and the HTTP layer import no feature module [FEAT-ARCHITECTURE]', () => {
  it('finds a chain into modules/ when there is one (app.ts registers the modules)', () => {
    const chains = chainsIntoModules([join(SRC, 'app.ts')]);
    expect(chains).toContain('app.ts -> modules/identity/index.ts');
  });

  it('src/kernel reaches nothing under src/modules', () => {
    const roots = sourcesUnder(join(SRC, 'kernel'));
    expect(roots.length).toBeGreaterThan(0);
    expect(chainsIntoModules(roots)).toEqual([]);
  });

  it('src/http reaches nothing under src/modules', () => {
    const roots = sourcesUnder(join(SRC, 'http'));
    expect(roots.length).toBeGreaterThan(0);
    expect(chainsIntoModules(roots)).toEqual([]);
  });
});
