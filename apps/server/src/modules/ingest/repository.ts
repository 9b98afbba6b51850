/**
 * Database access of the ingest module, one file per table it writes:
 * `tags-repository.ts`, `records-repository.ts` (records and their trip
 * inputs), `uploads-repository.ts` (scans and actions, and the upload stored
 * under a key), `series-repository.ts` (the record's series and location
 * samples as the recomputation reads them). The alarms it raises and closes are
 * written by the alarms module (`alarms/lifecycle-repository.ts`).
 *
 * Every query scopes by the organization: a serial number names a tag within
 * an organization only, and a tag's records are looked up within the
 * organization too (a tag that moved to another organization left its records
 * behind: they stay the old one's). Rows are locked (`FOR UPDATE`) in the
 * order tag, then record, so concurrent uploads of one tag serialize without
 * deadlocks.
 */
export { fromDriverRow } from './driver-row';
export * from './records-repository';
export * from './series-repository';
export * from './tags-repository';
export * from './uploads-repository';
