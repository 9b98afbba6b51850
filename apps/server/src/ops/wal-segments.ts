/**
 * WAL segment file names: 24 hex digits, timeline (8), then the segment
 * number split in two halves of 8 ("log" and "seg"). With a segment size of
 * S bytes one "log" holds 2^32 / S segments (256 for the default 16 MB).
 */

const NAME = /^([0-9A-F]{8})([0-9A-F]{8})([0-9A-F]{8})$/;

function parse(name: string, segmentBytes: number) {
  const m = NAME.exec(name);
  if (!m) throw new Error(`not a WAL segment name: ${name}`);
  const perLog = 0x1_0000_0000 / segmentBytes;
  return {
    timeline: Number.parseInt(m[1]!, 16),
    number: Number.parseInt(m[2]!, 16) * perLog + Number.parseInt(m[3]!, 16),
    perLog,
  };
}

const hex8 = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');

/** Every segment from `first` to `last` (inclusive, same timeline). */
export function segmentRange(first: string, last: string, segmentBytes: number): string[] {
  const a = parse(first, segmentBytes);
  const b = parse(last, segmentBytes);
  if (a.timeline !== b.timeline) {
    throw new Error(`the backup's WAL spans two timelines (${first} to ${last})`);
  }
  const out: string[] = [];
  for (let n = a.number; n <= b.number; n++) {
    out.push(hex8(a.timeline) + hex8(Math.floor(n / a.perLog)) + hex8(n % a.perLog));
  }
  return out;
}

export const timelineOf = (segment: string) => Number.parseInt(segment.slice(0, 8), 16);

/** PostgreSQL's `wal_segment_size` setting as bytes ('16MB' -> 16777216). */
export function parseSize(setting: string): number {
  const m = /^(\d+)\s*(B|kB|MB|GB)?$/.exec(setting.trim());
  if (!m) throw new Error(`unexpected wal_segment_size ${setting}`);
  const unit = { B: 1, kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[m[2] ?? 'B'] ?? 1;
  return Number(m[1]) * unit;
}
