import { RECORD_ACTION_TYPES } from '@coldtrace/contract';
import type { Database } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import type { AlarmEventSender } from '../notifications/events';
import { recomputeRecord } from './reevaluate';
import * as repo from './repository';
import { notFoundField } from './upload';

/**
 * The ingest service: every upload call of the phone app, rt tags and
 * nanotags, and a person's edits of a record, one function per contract call
 * (the routes and the demo seed call them). Where each lives:
 *
 * - `upload.ts`: the upload pipeline (the one prologue, idempotency, replies);
 * - `runs.ts`: tag-and-run resolution (the tag, its configuration, the record);
 * - `upload-writes.ts`: the writes an upload queues with their in-memory state;
 * - `xt1.ts`, `rt.ts`, `nanotag.ts`: the three device protocols;
 * - `edits.ts`: a person's edits (update-shipment, trip times, trips after a
 *   geo-fence or travel location change);
 * - `reevaluate.ts`: the record recomputed after each of them.
 */
export type { IngestContext, IngestLogger } from './upload';
export { xt1Upload, type Xt1UploadKind } from './xt1';
export { rtConfigure, rtPacket, rtRequest, rtStart, rtStop } from './rt';
export {
  nanotagConfigure,
  nanotagFirstSample,
  nanotagHealth,
  nanotagPacket,
  nanotagSettings,
  nanotagStatus,
  nanotagTransmitInterval,
} from './nanotag';
export { reevaluateTrips, xt1TripEdit, xt1UpdateShipment } from './edits';

// ---------------------------------------------------------------- for other modules

/**
 * Recompute a record (summary, alarms, status, trip, tag state) after a
 * change made elsewhere (e.g. an alarm acknowledgement does not need it; a
 * geo-fence or travel location edit does). 404 for another organization's
 * record. Locks the tag, then the record, like every upload.
 */
export async function reevaluateRecord(
  db: Database,
  organizationId: string,
  recordId: number,
  jobs: AlarmEventSender | null,
): Promise<RecordRow> {
  return db.transaction(async (tx) => {
    const found = await repo.findRecord(tx, organizationId, recordId);
    if (!found) throw notFoundField('Record', 'record_id');
    await repo.lockTagForRecord(tx, found.tagId);
    const record = await repo.lockRecord(tx, organizationId, recordId);
    if (!record) throw notFoundField('Record', 'record_id');
    return (await recomputeRecord(tx, record, { jobs })).record;
  });
}

/** Display name of a record action type (`action_type_display`). */
export function actionTypeDisplay(type: string): string {
  return (RECORD_ACTION_TYPES as Record<string, string>)[type] ?? type;
}
