import type { TRecordReference } from '@coldtrace/contract';
import type { Database, Transaction } from '../../db/client';
import type { TagRow } from '../../db/schema-shipments';
import { invalidField } from '../../kernel/errors';
import type { Principal } from '../../kernel/principal';
import type { AlarmEventSender } from '../../jobs/catalogue';
import type { ChangeSignature } from '../signatures';
import { metrics, type DeviceKind } from '../../observability/metrics';
import * as repo from './repository';
import { createHash, randomUUID } from 'node:crypto';

/**
 * The upload pipeline: what every upload call of the phone app, rt tags and
 * nanotags (and a person's edits) goes through before and around its own
 * work. Decisions: docs/decisions/shipment-ingest.md.
 *
 * - One prologue ({@link runUpload}): the caller (the organization
 *   the route's guard checked), the server time, the device
 *   times checked against it, the upload key.
 * - One transaction per upload; the tag row, then the record row, are locked
 *   (`SELECT ... FOR UPDATE`), so concurrent uploads of one tag serialize.
 * - Idempotency: uploads with an upload key (scans and actions) are looked up
 *   by it first, and again under the lock; a replay changes nothing and gets
 *   the stored reply. Packets are idempotent by merge-by-index.
 * - A record is one run of one tag, identified by its start_time_seconds; a
 *   record not started yet (configured, shipment created) is "pending".
 *
 * The calls themselves: the device families' decoders (`xt1.ts`, `rt.ts`,
 * `nanotag.ts`) into one upload shape (`decoded.ts`), run by one pipeline
 * (`pipeline.ts`), and a person's edits (`edits.ts`); the tag and record an
 * upload belongs to: `runs.ts`; its writes: `upload-writes.ts`; the record
 * recomputed after it: `reevaluate.ts`.
 */

export interface IngestLogger {
  warn(obj: object, msg: string): void;
}

export interface IngestContext {
  db: Database;
  log: IngestLogger;
  principal: Principal;
  /** The organization the upload works in (the route's `organizationId()`). */
  organizationId: string;
  /** Newly raised alarms are announced here (`alarm.raised`); null: nobody is notified (demo seed). */
  jobs: AlarmEventSender | null;
  /** The request's id, written with audit entries. */
  requestId?: string;
  /** The verified signature sent with a person's change (reason for change), if any. */
  signature?: ChangeSignature | null;
}

/** Who uploads: the organization everything is looked up and written in. */
export interface Caller {
  organizationId: string;
  userId: string;
  jobs: AlarmEventSender | null;
}

/** An upload may be at most this far in the future (device clocks drift; a day is plenty). */
const MAX_FUTURE_SECONDS = 86_400;
const UPLOAD_KEY_CONSTRAINTS = new Set(['scans_upload_key', 'record_actions_upload_key']);

/** The caller of an upload: its organization, who, and where raised alarms are announced. */
function callerOf({ principal, organizationId, jobs }: IngestContext): Caller {
  return { organizationId, userId: principal.user.id, jobs };
}

/** Drop undefined members (so spreading never overwrites with undefined). */
export function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export const isoSeconds = (iso: string): number => Date.parse(iso) / 1000;

function checkNotFuture(field: string, seconds: number | null | undefined, now: Date): void {
  if (seconds != null && seconds > now.getTime() / 1000 + MAX_FUTURE_SECONDS) {
    throw invalidField(field, `Field '${field}': lies more than a day in the future`);
  }
}

/** The reply naming the tag and (when there is one) the record of an upload. */
export function reference(record: { id: number } | null, tag: Pick<TagRow, 'id' | 'serialNumber'>) {
  const ref: TRecordReference = { tag_id: String(tag.id), tag_serial_number: tag.serialNumber };
  if (record) ref.record_id = String(record.id);
  return ref;
}

/** The reply of an upload stored earlier (a replay): the action's own reply, else a reference. */
export function storedReply<T>(stored: repo.StoredUpload): T {
  if (stored.kind === 'action' && stored.reply != null) return stored.reply as T;
  const ref: TRecordReference = {
    tag_id: String(stored.tagId),
    tag_serial_number: stored.tagSerialNumber,
  };
  if (stored.recordId !== null) ref.record_id = String(stored.recordId);
  return ref as T;
}

function isUploadKeyViolation(err: unknown): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e;) {
    if (e.code === '23505' && e.constraint && UPLOAD_KEY_CONSTRAINTS.has(e.constraint)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

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

/** The key of an action row whose upload has none: unique, never a replay. */
export const freshKey = (kind: string): string => uploadKey(kind, randomUUID());

/** The points an upload in flight merged (`mergeUpToStop`), reported once its transaction commits. */
const pointsMerged = new WeakMap<IngestContext, { device: DeviceKind; points: number }>();

/** Metrics: `upload` names the upload (`xt1.SCAN`, `rt.packet`), its device first. */
export function notePointsMerged(ctx: IngestContext, upload: string, added: number): void {
  const points = (pointsMerged.get(ctx)?.points ?? 0) + added;
  pointsMerged.set(ctx, { device: upload.split('.')[0] as DeviceKind, points });
}

function reportCommitted(ctx: IngestContext): void {
  const merged = pointsMerged.get(ctx);
  pointsMerged.delete(ctx);
  if (merged) metrics.upload(merged.device, merged.points);
}

/** What an upload call declares before its work runs (the one prologue). */
export interface UploadPrologue {
  /** The device time of the upload (from the server time when it has none); checked first, as `timestamp`. */
  timestamp?: (now: Date) => Date;
  /** Device times (seconds) that may not lie more than a day ahead, checked in this order. */
  notFuture?: readonly (readonly [field: string, seconds: number | null | undefined])[];
  /**
   * The upload key: the kind of upload and its body. An upload that does not
   * identify itself (`identified` false: no timestamp, no request id) gets
   * none: it is applied again, and since it only sets values, the same values
   * again change nothing (and write no action row). Absent: no key (packets
   * are idempotent by merge-by-index).
   */
  key?: { kind: string; body: object; identified?: boolean };
  /** The work looks the key up in its first statement (no lookup before the transaction). */
  lookupInWork?: boolean;
}

/** What the prologue established, handed to the work of an upload. */
export interface Upload {
  ctx: IngestContext;
  caller: Caller;
  /** The server time of the upload. */
  now: Date;
  /** The device time ({@link UploadPrologue.timestamp}); the server time when not declared. */
  timestamp: Date;
  key: string | null;
}

/**
 * Run one upload. The prologue: the caller (refused without an organization), the
 * server time, the device times checked (400 naming the field when more than
 * a day ahead), the upload key. Then a replay (same upload key) answers the
 * stored reply without a transaction; otherwise `work` runs in a transaction
 * and calls `replay()` once it holds the tag's lock (a twin that committed
 * meanwhile is found there). A twin that slipped past both checks hits the
 * unique key and is answered the same way.
 */
export async function runUpload<T>(
  ctx: IngestContext,
  prologue: UploadPrologue,
  work: (upload: Upload, tx: Transaction, replay: () => Promise<T | undefined>) => Promise<T>,
): Promise<T> {
  const caller = callerOf(ctx);
  const now = new Date();
  const timestamp = prologue.timestamp?.(now) ?? now;
  if (prologue.timestamp) checkNotFuture('timestamp', timestamp.getTime() / 1000, now);
  for (const [field, seconds] of prologue.notFuture ?? []) checkNotFuture(field, seconds, now);
  const { key: keyOf } = prologue;
  const key =
    keyOf !== undefined && keyOf.identified !== false ? uploadKey(keyOf.kind, keyOf.body) : null;
  const upload: Upload = { ctx, caller, now, timestamp, key };

  const db = ctx.db;
  if (key !== null && !prologue.lookupInWork) {
    const stored = await repo.findUpload(db, caller.organizationId, key);
    if (stored) return storedReply<T>(stored);
  }
  try {
    const result = await db.transaction((tx) =>
      work(upload, tx, async () => {
        if (key === null) return undefined;
        const stored = await repo.findUpload(tx, caller.organizationId, key);
        return stored ? storedReply<T>(stored) : undefined;
      }),
    );
    reportCommitted(ctx);
    return result;
  } catch (err) {
    pointsMerged.delete(ctx);
    if (key !== null && isUploadKeyViolation(err)) {
      const stored = await repo.findUpload(db, caller.organizationId, key);
      if (stored) return storedReply<T>(stored);
    }
    throw err;
  }
}
