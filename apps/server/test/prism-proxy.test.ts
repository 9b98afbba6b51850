import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldtraceClient } from '../../../examples/integration/client';
import {
  recordReportPdf,
  recordSeries,
  recordsInAlarm,
} from '../../../examples/integration/integration';
import { REPO_ROOT } from '../src/config';
import { createTestApp, uid, type TestApp, type TestClient } from './helpers';
import { scannedShipment } from './shipment-factories';

/**
 * Issue 36 item 7: an integrator's view of the contract. The document the
 * server serves (`/api/schema/`) is the committed docs/openapi.json, and the
 * generated client types (examples/integration/schema.d.ts) come from it fresh.
 * Then the integration example and every call an API key may make without
 * parameters run through Stoplight Prism's validation proxy against the real
 * server: Prism checks each request and each reply (status, headers, content
 * type, body) against the served document and reports what does not match in an
 * `sl-violations` header. None may.
 */

type OpenApi = {
  paths: Record<
    string,
    Record<string, { parameters?: { required?: boolean }[]; security?: object[] }>
  >;
};

/** Thresholds 8 / 2: points 2-3 are above. */
const EXCURSION = [5, 5, 9, 9.5, 5, 5];

/** Starts `prism proxy` on a free port; answers its address once it listens. */
async function startPrism(document: string, upstream: string) {
  const cli = path.join(REPO_ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
  const child = spawn(
    process.execPath,
    [cli, 'proxy', document, upstream, '--host', '127.0.0.1', '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false' } },
  );
  let output = '';
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Prism is listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]!);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}):\n${output}`));
    });
  });
  return { child, address };
}

describe('the contract through Prism’s validation proxy [FEAT-OPENAPI, FEAT-API-KEYS-ON-API]', () => {
  let t: TestApp;
  let admin: TestClient;
  let apiKey: string;
  let upstream: string;
  let served: OpenApi;
  let dir: string;
  let prism: { child: ChildProcess; address: string } | undefined;
  let tampered: { child: ChildProcess; address: string } | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    upstream = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    ({ client: admin } = await t.signIn({ role: 'Administrator' }));
    const key = await admin.post('/api/keys/generate/', {
      name: `Prism ${uid()}`,
      read_only: false,
    });
    expect(key.statusCode, key.body).toBe(200);
    apiKey = key.json().private_key as string;
    const schema = await fetch(`${upstream}/api/schema/`);
    expect(schema.status).toBe(200);
    served = (await schema.json()) as OpenApi;
    dir = await mkdtemp(path.join(tmpdir(), 'coldtrace-prism-'));
    await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(served));
    const wrong = structuredClone(served) as OpenApi & {
      components: { schemas: { Record: { properties: { id: object } } } };
    };
    wrong.components.schemas.Record.properties.id = { type: 'integer' };
    await writeFile(path.join(dir, 'tampered.json'), JSON.stringify(wrong));
    [prism, tampered] = await Promise.all([
      startPrism(path.join(dir, 'openapi.json'), upstream),
      startPrism(path.join(dir, 'tampered.json'), upstream),
    ]);
  }, 120_000);
  afterAll(async () => {
    prism?.child.kill();
    tampered?.child.kill();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves the committed document, and the example’s types are generated from it fresh', async () => {
    const committed = JSON.parse(await readFile(path.join(REPO_ROOT, 'docs/openapi.json'), 'utf8'));
    expect(served, 'stale docs/openapi.json: npm run openapi -w @coldtrace/server').toEqual(
      committed,
    );
    const out = path.join(dir, 'schema.d.ts');
    await promisify(execFile)(
      process.execPath,
      [
        path.join(REPO_ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
        path.join(dir, 'openapi.json'),
        '-o',
        out,
      ],
      { cwd: REPO_ROOT },
    );
    const example = await readFile(
      path.join(REPO_ROOT, 'examples/integration/schema.d.ts'),
      'utf8',
    );
    expect(
      example === (await readFile(out, 'utf8')),
      'stale examples/integration/schema.d.ts',
    ).toBe(true);
  });

  it('the integration example and every call an API key makes without parameters: 0 violations', async () => {
    const hot = await scannedShipment(admin, EXCURSION, 'PRISM');
    const violations: string[] = [];
    const seen: string[] = [];
    // Every reply through the proxy is looked at: its status and Prism's verdict.
    const watched: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push(`${url.pathname} ${response.status}`);
      const verdict = response.headers.get('sl-violations');
      if (verdict) violations.push(`${url.pathname}${url.search}: ${verdict}`);
      return response;
    };
    const viaProxy = coldtraceClient(prism!.address, apiKey, watched);

    const { records } = await recordsInAlarm(viaProxy);
    expect(records.map((r) => r.id)).toEqual([hot.recordId]);
    expect((await recordSeries(viaProxy, hot.recordId)).temperatures).toEqual(EXCURSION);
    const pdf = await recordReportPdf(viaProxy, hot.recordId);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const keyCalls = Object.entries(served.paths).filter(([, ops]) => {
      const get = ops.get;
      return (
        get !== undefined &&
        !(get.parameters ?? []).some((p) => p.required) &&
        (get.security ?? []).some((s) => 'apiKeyHeader' in s)
      );
    });
    expect(keyCalls.length).toBeGreaterThanOrEqual(15);
    for (const [pathName] of keyCalls) {
      const response = await watched(`${prism!.address}${pathName}`, {
        headers: { Authorization: `Api-Key ${apiKey}` },
      });
      expect(response.status, `${pathName}: ${await response.clone().text()}`).toBeLessThan(300);
      await response.arrayBuffer();
    }
    // Each of them went through the proxy, and the downloads too.
    expect(seen).toEqual(
      expect.arrayContaining(keyCalls.map(([pathName]) => expect.stringMatching(`^${pathName} `))),
    );
    expect(seen.some((s) => s.startsWith('/api/devices/xt1/reports/pdf/ 200'))).toBe(true);
    expect(violations).toEqual([]);

    // The proxy does judge: a request the document does not allow is named.
    const bad = await watched(`${prism!.address}/api/devices/xt1/reports/pdf/`, {
      method: 'POST',
      headers: { Authorization: `Api-Key ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ record_id: 12, unknown: true }),
    });
    expect(bad.status).toBe(400);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/record_id must be string/);
    violations.length = 0;

    // And it judges replies: against a copy of the document whose Record has a numeric id,
    // the same list is named.
    await recordsInAlarm(coldtraceClient(tampered!.address, apiKey, watched));
    expect(violations.join('\n')).toMatch(/Response body property 0.id must be integer/);
  });
});
