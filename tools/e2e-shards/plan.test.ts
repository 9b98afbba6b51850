import fc from 'fast-check';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import { durationsOf, planShards, readDurations, specFiles } from '../../e2e/shard-plan.mjs';
import { DurationSequencer } from '../test-order';

describe('the browser runs split by duration (e2e/shard-plan.mjs) [FEAT-VALIDATION]', () => {
  it('gives every file to exactly one run, none empty, within the longest file of even', () => {
    const fileSets = fc.uniqueArray(fc.stringMatching(/^e2e\/[a-z]{1,8}\.spec\.ts$/), {
      minLength: 2,
      maxLength: 40,
    });
    fc.assert(
      fc.property(
        fileSets,
        fc.array(fc.double({ min: 0, max: 300, noNaN: true }), { minLength: 40, maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 40 }),
        (files, seconds, runs, unknown) => {
          // Some files without a duration (added since the durations were written).
          const durations = Object.fromEntries(
            files.slice(Math.min(unknown, files.length)).map((f, i) => [f, seconds[i]!]),
          );
          const n = Math.min(runs, files.length);
          const plan = planShards(files, durations, n);
          expect(plan).toHaveLength(n);
          expect(plan.flat().sort()).toEqual([...files].sort());
          for (const run of plan) expect(run.length).toBeGreaterThan(0);
          for (const run of plan) expect(run).toEqual([...run].sort());
          // Longest-first list scheduling: no run ends later than an even share plus the longest file.
          const known = Object.values(durations).sort((a, b) => a - b);
          const median = known.length > 0 ? known[Math.floor(known.length / 2)]! : 1;
          const cost = (f: string) => Math.max(0.1, durations[f] ?? median);
          const total = files.reduce((s, f) => s + cost(f), 0);
          const longest = Math.max(...files.map(cost));
          for (const run of plan) {
            expect(run.reduce((s, f) => s + cost(f), 0)).toBeLessThanOrEqual(
              total / n + longest + 1e-9,
            );
          }
        },
      ),
    );
  });

  it('evens out two runs that counting tests left 90 s apart', () => {
    const durations = { 'e2e/a.spec.ts': 200, 'e2e/b.spec.ts': 150, 'e2e/c.spec.ts': 100 };
    const files = [...Object.keys(durations), 'e2e/d.spec.ts', 'e2e/e.spec.ts'];
    // d and e count as the median, 150: 200 + 150 against 150 + 150 + 100.
    expect(planShards(files, durations, 2)).toEqual([
      ['e2e/a.spec.ts', 'e2e/e.spec.ts'],
      ['e2e/b.spec.ts', 'e2e/c.spec.ts', 'e2e/d.spec.ts'],
    ]);
  });

  it("reads each file's seconds from Playwright's JSON report and lists the spec files", () => {
    const result = (ms: number) => ({ results: [{ duration: ms }] });
    const report = {
      suites: [
        {
          specs: [{ file: 'a.spec.ts', tests: [result(1500), result(500)] }],
          suites: [{ specs: [{ file: 'b.spec.ts', tests: [result(250)] }] }],
        },
      ],
    };
    expect(
      durationsOf([
        report,
        { suites: [{ specs: [{ file: 'a.spec.ts', tests: [result(1000)] }] }] },
      ]),
    ).toEqual({
      'e2e/a.spec.ts': 3,
      'e2e/b.spec.ts': 0.3,
    });
    const root = mkdtempSync(path.join(tmpdir(), 'shard-plan-'));
    mkdirSync(path.join(root, 'e2e'));
    for (const name of ['b.spec.ts', 'a.spec.ts', 'fixtures.ts']) {
      writeFileSync(path.join(root, 'e2e', name), '');
    }
    expect(specFiles(root)).toEqual(['e2e/a.spec.ts', 'e2e/b.spec.ts']);
    expect(readDurations(root)).toEqual({ unit: {}, browser: {} });
  });

  it('has a duration for every spec file of the repository but a few new ones', () => {
    const root = path.resolve(__dirname, '../..');
    const durations = readDurations(root).browser;
    const files = specFiles(root);
    const missing = files.filter((f) => durations[f] === undefined);
    // New specs count as the median until `npm run test:durations` is run after a full run.
    expect(missing.length, `no duration: ${missing.join(', ')}`).toBeLessThanOrEqual(5);
    const gone = Object.keys(durations).filter((f) => !files.includes(f));
    expect(gone, 'durations of spec files that are gone').toEqual([]);
  });
});

describe('the unit test files longest first (tools/test-order.ts) [FEAT-VALIDATION]', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'test-order-'));
  writeFileSync(
    path.join(root, 'test-durations.json'),
    JSON.stringify({ unit: { 'a.test.ts': 1, 'b.test.ts': 90, 'c.test.ts': 20 }, browser: {} }),
  );
  const spec = (project: string, file: string) =>
    ({
      project: { name: project, config: { sequence: { groupOrder: 0 }, isolate: false } },
      moduleId: path.join(root, file),
    }) as unknown as TestSpecification;
  const sequencer = (cached: string[]) =>
    new DurationSequencer({
      config: { root },
      cache: {
        getFileTestResults: (key: string) =>
          cached.includes(key) ? { duration: 1, failed: false } : undefined,
        getFileStats: () => undefined,
      },
    } as never);
  const names = (specs: TestSpecification[]) =>
    specs.map((s) => `${s.project.name}:${path.relative(root, s.moduleId)}`);

  it('without results of its own: per project, longest first, unknown files before them', async () => {
    const files = [
      spec('web', 'w.test.ts'),
      spec('server', 'a.test.ts'),
      spec('server', 'new.test.ts'),
      spec('server', 'b.test.ts'),
      spec('server', 'c.test.ts'),
    ];
    expect(names(await sequencer([]).sort(files))).toEqual([
      'server:new.test.ts',
      'server:b.test.ts',
      'server:c.test.ts',
      'server:a.test.ts',
      'web:w.test.ts',
    ]);
  });

  it("with Vitest's own results for every file: Vitest's order", async () => {
    const files = [spec('server', 'a.test.ts'), spec('server', 'b.test.ts')];
    const all = ['server:a.test.ts', 'server:b.test.ts'];
    expect(names(await sequencer(all).sort(files))).toEqual(all);
  });
});
