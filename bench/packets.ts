import { sql } from 'drizzle-orm';
import { deviceToken, startBench } from './bench-server';
import { createRng, excursionEvent, temperatureSeries } from '../tools/simulator/src/index';
import { fmt } from './measure';

/**
 * Packets to a growing record (issue 13): 60-point rt packets sent one after
 * another to one record until it holds BENCH_PACKETS_POINTS points (default
 * 60,000), through HTTP with a device token, on a throwaway database. Each
 * packet merges its points, recomputes the summary, the alarms and the trip,
 * as in production. The series holds two warm and one cold excursion, so
 * alarms open, grow and stay open while the record grows.
 *
 * As in production, every record names a product with a stability budget
 * (issue 14 item 3: three bands), so each packet also sums the budget across
 * the shipment's legs; the growing record shares its shipping reference with
 * the warm-up record (a second leg of WARM_UP packets), each control record has
 * a reference of its own.
 *
 * Another tag's record gets WARM_UP packets first (not measured). After each
 * packet, one goes to a control record kept as short as the first tenth's (a
 * new tag every tenth). Printed: the median cost of a packet over the first
 * tenth of the packets (the baseline: a short record) and over the last
 * tenth, their ratio, and the last tenth against the control packets sent
 * meanwhile (the same ratio, measured at the same moments).
 * Target of the issue on the 2-core machine: last / first <= 1.2 (the cost of
 * a packet depends on the points it brings, not on the points stored).
 */

const POINTS = Number(process.env.BENCH_PACKETS_POINTS ?? 60_000);
/** Packets sent to another tag first, so the first tenth is not the server's warm-up (JIT, pools). */
const WARM_UP = 200;
const PACKET = 60;
const INTERVAL = 60;
/** Packets a control record gets before a new one starts (it stays within the first tenth's size). */
const CONTROL_PACKETS = Math.max(1, Math.round(POINTS / PACKET / 10));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function post(baseUrl: string, token: string, path: string, body: object): Promise<void> {
  const res = await fetch(`${baseUrl}/api/devices/rt/${path}`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
}

export async function packetsBench(): Promise<void> {
  const bench = await startBench();
  try {
    const token = await deviceToken(bench.handle);
    const start = Math.floor(Date.now() / 1000) - POINTS * INTERVAL - 3600;
    const rng = createRng(13);
    const events = [
      excursionEvent('warm', start + 0.3 * POINTS * INTERVAL, rng),
      excursionEvent('cold', start + 0.6 * POINTS * INTERVAL, rng),
      excursionEvent('warm', start + 0.95 * POINTS * INTERVAL, rng),
    ];
    const temps = temperatureSeries(
      {
        productClass: 'refrigerated',
        startSeconds: start,
        intervalSeconds: INTERVAL,
        points: POINTS,
        events,
      },
      rng,
    );
    /** The product with a stability budget every record names (the budget step runs on each packet). */
    const PRODUCT = 'Bench Vaccine (2-8 °C)';
    const bands = [
      { direction: 'ABOVE', limit: 8, allowed_minutes: 720 },
      { direction: 'ABOVE', limit: 25, allowed_minutes: 60 },
      { direction: 'BELOW', limit: 0, allowed_minutes: 0 },
    ];
    let productMade = false;
    const begin = async (tag: string, shippingReference = `SHIP-${tag}`) => {
      await post(bench.baseUrl, token, 'configure-action/', {
        tag_id: tag,
        high_threshold: 8,
        low_threshold: 2,
        num_consecutive_excursions: 2,
        measurement_interval: INTERVAL,
      });
      await post(bench.baseUrl, token, 'start-action/', { tag_id: tag, start_time_seconds: start });
      const db = bench.handle.db;
      if (!productMade) {
        await db.execute(sql`INSERT INTO product_definitions (organization_id, product_name, stability_budget)
          SELECT organization_id, ${PRODUCT}, ${JSON.stringify(bands)}::jsonb
            FROM records WHERE tag_serial_number = ${tag} LIMIT 1`);
        productMade = true;
      }
      await db.execute(sql`UPDATE records SET product_designation = ${PRODUCT},
          shipping_reference = ${shippingReference} WHERE tag_serial_number = ${tag}`);
    };
    /** Sends the packet at `offset` to `tag`; answers its cost (ms). */
    const packet = async (tag: string, offset: number): Promise<number> => {
      const body = {
        tag_id: tag,
        start_time_seconds: start,
        temperatures_offset_index: offset,
        temps: temps.slice(offset, offset + PACKET),
      };
      const began = performance.now();
      await post(bench.baseUrl, token, 'packets/', body);
      return performance.now() - began;
    };
    await begin('BENCH-RT-WARM-UP', 'BENCH-SHIP-1');
    for (let offset = 0; offset < Math.min(POINTS, WARM_UP * PACKET); offset += PACKET) {
      await packet('BENCH-RT-WARM-UP', offset);
    }
    // The growing record; after each of its packets, one to a control record kept short
    // (a new tag every CONTROL_PACKETS packets): the same moment's cost at the start of a record.
    const tag = 'BENCH-RT-0001';
    await begin(tag, 'BENCH-SHIP-1');
    const costs: number[] = [];
    const control: number[] = [];
    let controlTag = '';
    for (let offset = 0, n = 0; offset < POINTS; offset += PACKET, n++) {
      costs.push(await packet(tag, offset));
      if (n % CONTROL_PACKETS === 0) {
        controlTag = `BENCH-RT-CONTROL-${n}`;
        await begin(controlTag);
      }
      control.push(await packet(controlTag, (n % CONTROL_PACKETS) * PACKET));
    }
    const tenth = Math.max(1, Math.floor(costs.length / 10));
    const first = median(costs.slice(0, tenth));
    const last = median(costs.slice(-tenth));
    const ratio = last / first;
    const lastControl = median(control.slice(-tenth));
    console.log(
      `${fmt(costs.length, 0)} packets of ${PACKET} points to one record (${fmt(POINTS, 0)} points at the end)`,
    );
    console.log(`  first tenth: ${fmt(first, 2)} ms per packet (median; the baseline)`);
    console.log(`  last tenth:  ${fmt(last, 2)} ms per packet (median)`);
    console.log(
      `  ratio:       ${fmt(ratio, 2)} (${ratio <= 1.2 ? 'meets' : 'misses'} the 1.2 target)`,
    );
    const tenths = Array.from({ length: 10 }, (_, k) =>
      fmt(median(costs.slice(k * tenth, (k + 1) * tenth)), 1),
    );
    console.log(`  by tenth:    ${tenths.join(', ')} ms (medians)`);
    console.log(
      `  control:     ${fmt(lastControl, 2)} ms per packet to a record of at most ${fmt(CONTROL_PACKETS * PACKET, 0)} points, ` +
        `sent alternately during the last tenth; last tenth / control ${fmt(last / lastControl, 2)} ` +
        `(the same ratio, free of the shared machine's drift)`,
    );
    const budget = await bench.handle.db.execute<{ n: number }>(
      sql`select count(*)::int as n from alarms where kind = 'budget'`,
    );
    console.log(
      `  budget:      ${fmt(Number(budget.rows[0]?.n ?? 0), 0)} stability budget alarms raised`,
    );
    const size = await bench.handle.db.execute<{ bytes: number }>(
      sql`select max(pg_column_size(state))::int as bytes from record_aggregates`,
    );
    const bytes = Number(size.rows[0]?.bytes ?? 0);
    console.log(
      `  aggregates:  ${fmt(bytes, 0)} bytes per record (record_aggregates.state; ${fmt(bytes / POINTS, 3)} bytes per point here)`,
    );
  } finally {
    await bench.close();
  }
}
