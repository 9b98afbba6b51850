import { describe, expect, it } from 'vitest';
import { asFloat4Decimal, planMerge, SERIES_CHUNK_SIZE } from './series-store';

const ORG = '00000000-0000-0000-0000-000000000001';

describe('planMerge (merge by index in memory) [RULE-SERIES-3, RULE-SERIES-4]', () => {
  it('a new record: every offered value is added, as stored (float4), chunk by chunk', () => {
    const temps = Array.from({ length: SERIES_CHUNK_SIZE + 10 }, (_, i) =>
      i === 5 ? null : 5 + i / 1000,
    );
    const plan = planMerge(ORG, 1, new Map(), 3, temps);
    expect(plan.added).toBe(temps.length - 1);
    expect(plan.conflicts).toEqual([]);
    expect([...plan.chunks.keys()]).toEqual([0, 1]);
    const first = plan.chunks.get(0)!;
    expect(first.slice(0, 3)).toEqual([null, null, null]);
    expect(first[3]).toBe(asFloat4Decimal(5));
    expect(first[8]).toBeNull();
    expect(first[4]).toBe(asFloat4Decimal(5.001));
    expect(plan.chunks.get(1)).toHaveLength(13);
    expect(plan.write).not.toBeNull();
    expect([plan.firstAdded, plan.lastAdded]).toEqual([3, 3 + temps.length - 1]);
  });

  it('an empty stored chunk and an absent one give the same chunks; a replay writes nothing', () => {
    const temps = [1.1, 2.2, null, 4.4];
    const absent = planMerge(ORG, 1, new Map(), 2, temps);
    const empty = planMerge(ORG, 1, new Map([[0, []]]), 2, temps);
    expect(empty.chunks).toEqual(absent.chunks);
    expect(empty.added).toBe(3);
    const replay = planMerge(ORG, 1, absent.chunks, 2, temps);
    expect(replay.added).toBe(0);
    expect(replay.write).toBeNull();
    expect([replay.firstAdded, replay.lastAdded]).toEqual([null, null]);
    expect(replay.chunks).toEqual(absent.chunks);
  });

  it('existing points keep their first value; a different one is reported', () => {
    const stored = new Map([[0, [5, null, 7]]]);
    const plan = planMerge(ORG, 1, stored, 0, [5, 6, 8, 9]);
    expect(plan.added).toBe(2);
    expect(plan.chunks.get(0)).toEqual([5, 6, 7, 9]);
    expect(plan.conflicts).toEqual([{ index: 2, kept: 7, offered: 8 }]);
    // The gaps filled: index 1 (before the end: a late point) and index 3.
    expect([plan.firstAdded, plan.lastAdded]).toEqual([1, 3]);
  });
});
