import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { createRng, type Rng } from '../../../../../tools/simulator/src/index';
import { records, tags } from '../../db/schema-shipments';
import { MAX_SEARCH_TAGS } from './search';

/**
 * The search box through HTTP on PostgreSQL equals the spec's rule evaluated in
 * memory (section 5: case-insensitive contains, ORed per word, across id, tag
 * serial number, the three references, program, shipper and receiver names,
 * carrier, product designation and PO number), for random words over a small
 * alphabet, so words hit serial numbers, references and names alike. The
 * serial number is found through record_tag_serials (repository.ts
 * `searchCondition`): the seed has serial numbers shared by tags of two
 * organizations, a tag that moved to the other organization after its records
 * were made, and records whose serial number differs from their tag's.
 */

const ALPHABET = ['a', 'B', '1', '2', '-', '_', '%'];
const text = (rng: Rng, min: number, max: number) =>
  Array.from({ length: rng.int(min, max) }, () => rng.pick(ALPHABET)).join('');

interface Model {
  id: string;
  fields: string[];
}

describe('search box: equals the contains rule in memory [SPEC-5.5]', () => {
  let t: TestApp;
  let client: TestClient;
  const model: Model[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const signed = await t.signIn({ role: 'Viewer' });
    client = signed.client;
    const org = signed.orgs[0]!;
    const other = await t.createOrg();
    const f = recordFactories(t.db);
    // The same records every run.
    const rng = createRng(7);
    const locations = [];
    for (let i = 0; i < 4; i++) {
      locations.push(await f.travelLocation(org, { name: `Loc ${text(rng, 1, 3)}` }));
    }
    const serials = Array.from({ length: 8 }, (_, i) => `S${i}${text(rng, 1, 4)}`);
    const orgTags = [];
    for (const [i, serial] of serials.entries()) {
      orgTags.push(await f.tag(org, { serialNumber: serial }));
      // The same serial number in another organization: its records never
      // answer (not for the first tag, which moves there below).
      if (i === 0) continue;
      const foreign = await f.tag(other, { serialNumber: serial });
      await f.record(other, foreign, { primaryReference: serial });
    }
    const locationName = new Map(locations.map((l) => [l.id, l.name]));
    for (let i = 0; i < 40; i++) {
      const tag = orgTags[i % orgTags.length]!;
      const shipper = rng.pick(locations);
      const receiver = rng.chance(0.5) ? rng.pick(locations) : null;
      const values = {
        primaryReference: text(rng, 0, 5),
        secondaryReference: text(rng, 0, 3),
        shippingReference: text(rng, 0, 3),
        programName: text(rng, 0, 3),
        carrier: text(rng, 0, 3),
        productDesignation: text(rng, 0, 3),
        poNumber: text(rng, 0, 4),
        shipperLocationId: shipper.id,
        receiverLocationId: receiver?.id ?? null,
        // A few records carry a serial number other than their tag's (as an
        // older import might): the search tests the record's own.
        ...(i % 13 === 5 ? { tagSerialNumber: `X${text(rng, 1, 3)}` } : {}),
      };
      const row = await f.record(org, tag, values);
      model.push({
        id: String(row.id),
        fields: [
          String(row.id),
          row.tagSerialNumber,
          values.primaryReference,
          values.secondaryReference,
          values.shippingReference,
          values.programName,
          values.carrier,
          values.productDesignation,
          values.poNumber,
          locationName.get(shipper.id)!,
          receiver ? locationName.get(receiver.id)! : '',
        ],
      });
    }
    // A tag moves to the other organization after its records were made: they stay searchable here.
    await t.db
      .update(tags)
      .set({ organizationId: other.id })
      .where(sql`${tags.id} = ${orgTags[0]!.id}`);
  });
  afterAll(() => t.close());

  const search = async (terms: string): Promise<string[]> => {
    const res = await client.get(
      `/api/devices/xt1/records/?page_size=1000&search=${encodeURIComponent(terms)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json() as { id: string }[]).map((r) => r.id).sort();
    expect(Number(res.headers['x-total-count'])).toBe(ids.length);
    return ids;
  };
  const expected = (words: string[]) =>
    model
      .filter((m) =>
        words.some((w) => m.fields.some((f) => f.toLowerCase().includes(w.toLowerCase()))),
      )
      .map((m) => m.id)
      .sort();

  it('for random words (1 to 3, 1 to 4 characters)', async () => {
    const word = fc
      .array(fc.constantFrom(...ALPHABET, 'S', 's0', 'Loc', 'X'), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 3 }), async (words) => {
        expect(await search(words.join(' '))).toEqual(expected(words));
      }),
      { numRuns: 60 },
    );
  });

  it('finds records by serial number, also of a tag that moved away', async () => {
    const serial = model[0]!.fields[1]!;
    const found = await search(serial.toLowerCase());
    expect(found).toEqual(expected([serial]));
    expect(found).toContain(model[0]!.id);
  });

  it('pages through the matches in order, with the total on every page, also past the last', async () => {
    const words = ['a'];
    const all = expected(words);
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 3) + 1; page++) {
      const res = await client.get(
        `/api/devices/xt1/records/?page_size=3&page_number=${page}&order_by=id&search=a`,
      );
      expect(res.statusCode).toBe(200);
      expect(Number(res.headers['x-total-count'])).toBe(all.length);
      pages.push(...(res.json() as { id: string }[]).map((r) => r.id));
    }
    expect(pages).toEqual([...all].sort((x, y) => Number(x) - Number(y)));
  });

  it('a word naming more than MAX_SEARCH_TAGS tags is tested on every record: same answer', async () => {
    // Stand-in rows (tags of no record) so the word names more tags than the lookup takes.
    const organizationId = (
      await t.db
        .select({ o: records.organizationId })
        .from(records)
        .where(sql`${records.id} = ${Number(model[0]!.id)}`)
    )[0]!.o;
    await t.db.execute(sql`
      INSERT INTO record_tag_serials (organization_id, suffix, tag_id)
      SELECT ${organizationId}::uuid, 's-many-' || g, 1000000000 + g FROM generate_series(1, ${MAX_SEARCH_TAGS + 1}) g`);
    for (const words of [['S'], ['s-'], ['S', 'a']]) {
      expect(await search(words.join(' '))).toEqual(expected(words));
    }
  });
});
