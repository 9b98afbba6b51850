/**
 * The ingest service: every upload call of the phone app, rt tags and
 * nanotags, and a person's edits of a record, one function per contract call
 * (the routes and the demo seed call them). Where each lives:
 *
 * - `upload.ts`: the upload pipeline (the one prologue, idempotency, replies);
 * - `runs.ts`: tag-and-run resolution (the tag, its configuration, the record);
 * - `upload-writes.ts`: the writes an upload queues with their in-memory state;
 * - `xt1.ts`, `rt.ts`, `nanotag.ts`: the three device protocols, each a
 *   decoder into the one upload shape (`decoded.ts`);
 * - `pipeline.ts`: the one ordered pipeline every decoded upload runs;
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
