import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { allCalls } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { createTestApp, type TestApp } from './helpers';

describe('OpenAPI [FEAT-OPENAPI, SPEC-7.8]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/schema/ lists every call of the contract', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/schema/' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const call of allCalls) {
      const operation = doc.paths?.[call.path]?.[call.method.toLowerCase()];
      expect(operation, `${call.method} ${call.path}`).toBeDefined();
      expect(operation.operationId).toBe(call.operationId);
      expect(operation.tags).toEqual([call.tag]);
      expect(Object.keys(operation.responses)).toContain(call.reply === null ? '204' : '200');
    }
    const operations = Object.values(doc.paths as Record<string, object>).flatMap(Object.keys);
    expect(operations).toHaveLength(allCalls.length);
  });

  it('docs/openapi.json is up to date (npm run openapi -w @coldtrace/server)', async () => {
    const committed = JSON.parse(await readFile(path.join(REPO_ROOT, 'docs/openapi.json'), 'utf8'));
    const generated = JSON.parse(JSON.stringify(t.app.swagger()));
    expect(committed).toEqual(generated);
  });

  it('serves the API browser at /api/docs/', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
