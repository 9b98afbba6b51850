import { describe, expect, it } from 'vitest';
import type { Counts } from './counts';
import type { Manifest } from './manifest';
import { compareCounts, countsMatch } from './verify';
import { parseSize, segmentRange } from './wal-segments';

const MB16 = 16 * 1024 * 1024;

describe('WAL segment names [FEAT-BACKUP-RESTORE]', () => {
  it('lists every segment from the first to the last, across a "log" boundary', () => {
    expect(segmentRange('0000000100000000000000FE', '000000010000000100000001', MB16)).toEqual([
      '0000000100000000000000FE',
      '0000000100000000000000FF',
      '000000010000000100000000',
      '000000010000000100000001',
    ]);
    expect(segmentRange('000000020000000000000007', '000000020000000000000007', MB16)).toEqual([
      '000000020000000000000007',
    ]);
  });

  it('refuses a range over two timelines, and reads wal_segment_size', () => {
    expect(() =>
      segmentRange('000000010000000000000007', '000000020000000000000008', MB16),
    ).toThrow(/two timelines/);
    expect(parseSize('16MB')).toBe(MB16);
    expect(parseSize('1GB')).toBe(1024 ** 3);
  });
});

describe('counts against a manifest [FEAT-BACKUP-RESTORE]', () => {
  const counts = (records: number): Counts => ({
    records,
    points: records * 10,
    alarms: 2,
    alarmSignatures: 2,
    releaseDecisions: 1,
    auditEntries: 5,
  });
  const manifest = { counts: { atLeast: counts(10), atStop: counts(20) } } as Manifest;

  it('fails below the lower bound only; more than at the end is later writes', () => {
    expect(countsMatch(compareCounts(counts(10), manifest))).toBe(true);
    expect(compareCounts(counts(15), manifest)[0]!.status).toBe('ok');
    expect(compareCounts(counts(25), manifest)[0]!.status).toBe('ok (more: later writes)');
    const short = compareCounts(counts(9), manifest);
    expect(short[0]!.status).toBe('MISSING ROWS');
    expect(countsMatch(short)).toBe(false);
  });
});
