import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE_DOC, moduleGraph, withCurrentTable } from '../scripts/module-graph';

describe('docs/ARCHITECTURE.md [FEAT-ARCHITECTURE]', () => {
  it('lists every server module and what it imports (npm run architecture -w @coldtrace/server when stale)', () => {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    expect(doc).toBe(withCurrentTable(doc));
  });

  it('reads a graph of real modules with real edges', () => {
    const graph = moduleGraph();
    expect(graph.get('ingest')).toBeDefined();
    expect([...graph.get('reports')!]).toContain('records');
    // Nothing imports a module that does not exist.
    for (const uses of graph.values()) for (const u of uses) expect(graph.has(u)).toBe(true);
  });
});
