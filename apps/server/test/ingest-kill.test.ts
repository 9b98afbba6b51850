import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scans } from '../src/db/schema-shipments';
import { readSeries } from '../src/kernel/series-store';
import { useServerProcesses } from './server-process';
import { epoch, insertToken, recordOf, serial } from './shipment-factories';
import { freePort } from './smtp-sink';

/**
 * The real server process (tsx, external PostgreSQL) is killed with SIGKILL in
 * the middle of a stream of uploads, then started again: every upload
 * answered 2xx before the kill is stored, and the device's retries of the
 * unanswered ones (some of which committed without an answer) complete the
 * series without storing anything twice.
 */

const PACKETS = 60;
const POINTS = 100;
const KILL_AFTER = 25;
const WORKERS = 4;

describe('a server killed in the middle of a stream of uploads [FEAT-DURABILITY, RULE-SERIES-3]', () => {
  const processes = useServerProcesses('kill');

  it(
    'loses no answered upload, and the retries complete the series',
    { timeout: 90_000 },
    async () => {
      const t = processes.t;
      const user = await t.createUser({ role: 'Administrator' });
      const token = await insertToken(t.db, user.id, user.orgs[0]!.id);
      const port = await freePort();
      let server = await processes.start(port);

      const post = async (url: string, body: unknown): Promise<Response> =>
        fetch(`http://127.0.0.1:${port}${url}`, {
          method: 'POST',
          headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });

      const rtTag = serial('RT');
      const xt1Tag = serial('XT1');
      const start = epoch(new Date()) - PACKETS * POINTS * 60;
      expect(
        (
          await post('/api/devices/rt/configure-action/', {
            tag_id: rtTag,
            measurement_interval: 60,
          })
        ).status,
      ).toBe(200);
      const started = await post('/api/devices/rt/start-action/', {
        tag_id: rtTag,
        start_time_seconds: start,
      });
      const rtRecord = ((await started.json()) as { record_id: string }).record_id;

      const temp = (i: number) => Math.round((4 + 3 * Math.sin(i / 40)) * 10) / 10;
      const slice = (k: number) => Array.from({ length: POINTS }, (_, j) => temp(k * POINTS + j));
      // Alternating: an rt packet (idempotent by index) and an xt1 scan of a slice (upload key).
      const uploads = Array.from({ length: PACKETS * 2 }, (_, n) => {
        const k = Math.floor(n / 2);
        return n % 2 === 0
          ? {
              url: '/api/devices/rt/packets/',
              body: {
                tag_id: rtTag,
                start_time_seconds: start,
                temperatures_offset_index: k * POINTS,
                temps: slice(k),
              },
            }
          : {
              url: '/api/devices/xt1/scans/',
              body: {
                tag_id: xt1Tag,
                tag_serial_number: xt1Tag,
                timestamp: new Date((start + (k + 1) * POINTS * 60) * 1000).toISOString(),
                start_time_seconds: start,
                high_threshold: 8,
                low_threshold: 2,
                measurement_interval: 60,
                start_delay: 0,
                temperatures_offset_index: k * POINTS,
                temps: slice(k),
              },
            };
      });

      // Stream with a few uploads in flight; SIGKILL once KILL_AFTER are answered.
      const answered = new Set<number>();
      let next = 0;
      let killed = false;
      const worker = async () => {
        while (!killed && next < uploads.length) {
          const n = next++;
          try {
            const res = await post(uploads[n]!.url, uploads[n]!.body);
            if (res.status === 200) answered.add(n);
            else throw new Error(`${res.status} ${await res.text()}`);
          } catch (err) {
            if (!killed) throw err;
          }
          if (!killed && answered.size >= KILL_AFTER) {
            killed = true;
            server!.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, worker));
      await server.exited;
      expect(killed).toBe(true);
      expect(answered.size).toBeGreaterThanOrEqual(KILL_AFTER);
      expect(answered.size).toBeLessThan(uploads.length);

      // Every upload answered 2xx before the kill is stored.
      const rtSeries = await readSeries(t.db, Number(rtRecord));
      const xt1Record = (await t.db.select({ recordId: scans.recordId }).from(scans).limit(1))[0]
        ?.recordId;
      const xt1Series = xt1Record ? await readSeries(t.db, xt1Record) : [];
      for (const n of answered) {
        const k = Math.floor(n / 2);
        const stored = (n % 2 === 0 ? rtSeries : xt1Series).slice(k * POINTS, (k + 1) * POINTS);
        expect(stored, `upload ${n}`).toEqual(slice(k));
      }

      // The device retries everything it got no answer for.
      server = await processes.start(port);
      for (let n = 0; n < uploads.length; n++) {
        if (answered.has(n)) continue;
        const res = await post(uploads[n]!.url, uploads[n]!.body);
        expect(res.status, `retry ${n}: ${await res.clone().text()}`).toBe(200);
      }
      const expected = Array.from({ length: PACKETS * POINTS }, (_, i) => temp(i));
      expect(await readSeries(t.db, Number(rtRecord))).toEqual(expected);
      const [scan] = await t.db.select({ recordId: scans.recordId }).from(scans).limit(1);
      expect(await readSeries(t.db, scan!.recordId!)).toEqual(expected);
      expect(
        await t.db.select().from(scans).where(eq(scans.recordId, scan!.recordId!)),
      ).toHaveLength(PACKETS);
      for (const id of [Number(rtRecord), scan!.recordId!]) {
        expect(await recordOf(t.db, id)).toMatchObject({
          numberOfPoints: PACKETS * POINTS,
          seriesLength: PACKETS * POINTS,
        });
      }
      server.child.kill('SIGTERM');
      await server.exited;
    },
  );
});
