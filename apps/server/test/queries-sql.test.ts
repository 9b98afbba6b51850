import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { format } from 'sql-formatter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { scannedShipment } from './shipment-factories';

/**
 * Issue 38 item 2: the SQL each list call sends, visible without running the
 * server (as Immich commits its `queries/*.sql`). Each call below is made
 * twice on a real database; the statements the second (warm) call sends on the
 * app's pool are written, formatted, into `apps/server/queries/lists.sql`.
 * The test fails when the committed file differs:
 *
 *   UPDATE_QUERIES=1 npx vitest run apps/server/test/queries-sql.test.ts
 *
 * rewrites it. Values are always bound ($1, $2...): the text is the same for
 * any organization, so the file only changes when the code does.
 */

const FILE = path.join(REPO_ROOT, 'apps/server/queries/lists.sql');
const XT1 = '/api/devices/xt1';

/** The list calls, as a user's browser and an integration make them. */
const CALLS: { name: string; url: (recordId: string) => string }[] = [
  { name: 'All Records, first page (the home list)', url: () => `${XT1}/records/` },
  { name: 'All Records, second page', url: () => `${XT1}/records/?page_number=2&page_size=2` },
  {
    name: 'All Records by creation, oldest first',
    url: () => `${XT1}/records/?order_by=created`,
  },
  {
    name: 'A dashboard card: records in alarm',
    url: () => `${XT1}/records/?filter=computed_status__is%3DAlarm`,
  },
  { name: 'The latest record of each tag', url: () => `${XT1}/records/?latest=true` },
  {
    name: 'A table filter: product and high threshold',
    url: () =>
      `${XT1}/records/?filter=product_designation__contains%3Dvacc%5Ehigh_threshold__gte%3D8`,
  },
  { name: 'The search box: a serial number', url: () => `${XT1}/records/?search=QSQL` },
  { name: 'One record', url: (id) => `${XT1}/record/?record_id=${id}` },
  { name: 'The tags (All Devices)', url: () => `${XT1}/` },
  { name: 'The scans list', url: () => `${XT1}/scans/` },
  { name: 'The alarms of a record', url: (id) => `${XT1}/alarms/?record_id=${id}` },
  { name: 'Statistics: the dashboard cards', url: () => `${XT1}/records/statistics/summary/` },
  {
    name: 'Statistics of a month',
    url: () =>
      `${XT1}/records/statistics/filtered/?start_date=2026-11-01T00:00:00Z&end_date=2026-12-01T00:00:00Z`,
  },
  {
    name: "A record's compact series (the chart)",
    url: (id) => `/api/devices/aggregate/record-series/?record_id=${id}`,
  },
];

/** The texts of the statements `run` sends on connections to `database`, in order. */
async function statementsOf(database: string, run: () => Promise<void>): Promise<string[]> {
  const sent: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    const text = typeof config === 'string' ? config : config?.text;
    if (this.database === database && text !== undefined) sent.push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}

/** Formatted for reading (sql-formatter); a text it cannot parse stays as sent. */
function pretty(text: string): string {
  try {
    return format(text, { language: 'postgresql', keywordCase: 'lower' });
  } catch {
    return text;
  }
}

describe('the SQL of the list calls, committed as queries/lists.sql [FEAT-ARCHITECTURE, FEAT-PERFORMANCE]', () => {
  let t: TestApp;
  let viewer: TestClient;
  let recordId: string;

  beforeAll(async () => {
    t = await createTestApp({ jobs: { runWorkers: false } });
    const signedIn = await t.signIn({ role: 'Manager' });
    viewer = signedIn.client;
    for (const temps of [
      [5, 5, 5],
      [5, 9, 9.5, 5],
      [4, 4, 4, 4],
    ]) {
      ({ recordId } = await scannedShipment(viewer, temps, 'QSQL'));
    }
  });
  afterAll(() => t?.close());

  it('each list call sends the statements written in apps/server/queries/lists.sql', async () => {
    const recorded: { call: (typeof CALLS)[number]; url: string; statements: string[] }[] = [];
    for (const call of CALLS) {
      const url = call.url(recordId);
      // Once to warm the caches (the principal, prepared statements), then the call recorded.
      expect((await viewer.get(url)).statusCode, url).toBe(200);
      let status = 0;
      const statements = await statementsOf(t.databaseName, async () => {
        status = (await viewer.get(url)).statusCode;
      });
      expect(status, url).toBe(200);
      expect(statements.length, url).toBeGreaterThan(0);
      recorded.push({
        call,
        url: url.replace(`record_id=${recordId}`, 'record_id=:id'),
        statements,
      });
    }
    // What every request sends (the session and its user) is written once, first.
    const everyRequest = recorded[0]!.statements.filter((s) =>
      recorded.every((r) => r.statements.includes(s)),
    );
    const section = (title: string[], statements: string[]) =>
      [...title.map((line) => `-- ${line}`), '', ...statements.map((s) => `${pretty(s)};\n`)].join(
        '\n',
      );
    const sections = [
      section(['Every request of a signed-in browser (its session and user)'], everyRequest),
      ...recorded.map((r) =>
        section(
          [r.call.name, `GET ${r.url}`],
          r.statements.filter((s) => !everyRequest.includes(s)),
        ),
      ),
    ];
    const written = [
      '-- The statements each list call sends to PostgreSQL on a warm server, in order.',
      '-- Generated by apps/server/test/queries-sql.test.ts: do not edit by hand;',
      '-- UPDATE_QUERIES=1 npx vitest run apps/server/test/queries-sql.test.ts',
      '',
      ...sections,
    ].join('\n');
    if (process.env.UPDATE_QUERIES === '1') await writeFile(FILE, written);
    const committed = await readFile(FILE, 'utf8').catch(() => '');
    expect(
      committed === written,
      'apps/server/queries/lists.sql is stale: UPDATE_QUERIES=1 npx vitest run apps/server/test/queries-sql.test.ts',
    ).toBe(true);
  });
});
