import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintOpenApi } from './run';

/**
 * Issue 36 item 7: the OpenAPI document, generated from the contract, passes
 * Spectral (`spectral:oas`, .spectral.yaml) and Redocly (`recommended`,
 * redocly.yaml) without an error or a warning (`npm run lint:openapi`).
 */
describe('the OpenAPI document lints clean [FEAT-OPENAPI]', () => {
  it('Spectral and Redocly find nothing', { timeout: 120_000 }, async () => {
    const report = await lintOpenApi();
    const shown = (f: { tool: string; rule: string; message: string; where: string }) =>
      `${f.tool} ${f.rule}: ${f.message} (${f.where})`;
    expect(report.spectral.map(shown)).toEqual([]);
    expect(report.redocly.map(shown)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it(
    'finds what the integrator found: an undefined tag, an operation without a description',
    {
      timeout: 60_000,
    },
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'coldtrace-lint-'));
      const file = path.join(dir, 'bad.json');
      await writeFile(
        file,
        JSON.stringify({
          openapi: '3.1.0',
          info: {
            title: 'bad',
            version: '1',
            description: 'bad',
            license: { name: 'MIT', identifier: 'MIT' },
          },
          servers: [{ url: '/' }],
          tags: [],
          paths: {
            '/a/': {
              get: {
                operationId: 'a',
                summary: 'a',
                tags: ['untagged'],
                responses: { '200': { description: 'ok' }, '400': { description: 'bad' } },
              },
            },
          },
        }),
      );
      try {
        const report = await lintOpenApi(file);
        expect(report.ok).toBe(false);
        expect(report.spectral.map((f) => f.rule)).toEqual(
          expect.arrayContaining(['operation-tag-defined', 'operation-description']),
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
