/**
 * Database access of the ingest module: `tags-repository.ts` (tags),
 * `uploads-repository.ts` (scans and actions, the upload stored under a key,
 * where an upload's run goes), `series-repository.ts` (the record's series and
 * location samples as the recomputation reads them) and `settings-repository.ts`
 * (what a run and its trip read from the organization's settings). The records
 * it finds, locks and writes are the records module's (re-exported below); the
 * alarms it raises and closes, the alarms module's (`alarms/lifecycle-repository.ts`).
 *
 * Every query scopes by the organization: a serial number names a tag within
 * an organization only, and a tag's records are looked up within the
 * organization too (a tag that moved to another organization left its records
 * behind: they stay the old one's). Rows are locked (`FOR UPDATE`) in the
 * order tag, then record, so concurrent uploads of one tag serialize without
 * deadlocks.
 */
export { fromDriverRow } from '../../db/driver-row';
export * from './settings-repository';
/** The records table is the records module's: ingest asks it (`records/writes.ts`, `lookups.ts`). */
export {
  endEarlierRuns,
  findRecordRow as findRecord,
  findTripAffectedRecords,
  hasLaterRun,
  insertRun,
  lockActiveRecord,
  lockLatestRecord,
  lockPendingRecord,
  lockRecord,
  lockRecordByStart,
  lockRecordCovering,
  updateRecord,
  updateRecordSql,
} from '../records';
export * from './series-repository';
export * from './tags-repository';
export * from './uploads-repository';
