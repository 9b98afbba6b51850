import { createHash } from 'node:crypto';

/**
 * The upload key: SHA-256 of the kind of upload and its canonical body (the
 * validated body as JSON with sorted keys; absent fields dropped, defaults
 * applied), so the same upload sent again, in any key order, has the same key.
 */
export function uploadKey(kind: string, body: unknown): string {
  return createHash('sha256').update(kind).update('\n').update(canonicalJson(body)).digest('hex');
}

/** JSON with object keys sorted at every level; `undefined` members are left out. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    // Fast path, same text: a list of numbers (an upload's temps) is what JSON.stringify gives.
    if (value.every((v) => typeof v === 'number')) return JSON.stringify(value);
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
