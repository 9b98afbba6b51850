import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The server's module graph, read from the imports (the same reading as the
 * lint rule tools/eslint/server-boundaries.js): which module imports which.
 * docs/ARCHITECTURE.md carries it as a table; `npm run architecture -w
 * @coldtrace/server` rewrites it, and test/architecture-doc.test.ts checks it.
 */

export const SRC = path.resolve(import.meta.dirname, '../src');
const IMPORT =
  /(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

const relOf = (file: string) =>
  path.relative(SRC, file).split(path.sep).join('/').replace(/\.ts$/, '');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every module (folder under src/modules) and the modules it imports. */
export function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const name of readdirSync(path.join(SRC, 'modules')).sort()) {
    if (statSync(path.join(SRC, 'modules', name)).isDirectory()) graph.set(name, new Set());
  }
  for (const file of sources(path.join(SRC, 'modules'))) {
    const from = relOf(file).split('/')[1]!;
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = relOf(path.resolve(path.dirname(file), m[1] ?? m[2]!)).split('/');
      if (target[0] === 'modules' && target[1] !== from) graph.get(from)!.add(target[1]!);
    }
  }
  return graph;
}

export const TABLE_START = '<!-- module-imports:start -->';
export const TABLE_END = '<!-- module-imports:end -->';

/** The table of docs/ARCHITECTURE.md: each module and the modules it may import (it does). */
export function moduleTable(graph = moduleGraph()): string {
  const rows = [...graph].map(
    ([name, uses]) =>
      `| \`${name}\` | ${
        uses.size === 0
          ? '(none)'
          : [...uses]
              .sort()
              .map((u) => `\`${u}\``)
              .join(', ')
      } |`,
  );
  return [
    TABLE_START,
    '| Module | Imports (through their `index.ts`) |',
    '|---|---|',
    ...rows,
    TABLE_END,
  ].join('\n');
}

export const ARCHITECTURE_DOC = path.resolve(import.meta.dirname, '../../../docs/ARCHITECTURE.md');

/** The document with its table replaced by the current one. */
export function withCurrentTable(doc: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < 0) throw new Error(`docs/ARCHITECTURE.md has no ${TABLE_START} section`);
  return doc.slice(0, start) + moduleTable() + doc.slice(end + TABLE_END.length);
}
