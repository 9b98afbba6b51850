/**
 * The records module's entry: other modules import it from here only (issue 12).
 */
export { presentAlarm } from './presenter';
export {
  findRecordRow,
  lockRecord,
  lockRecordsForRecompute,
  recordCountsByOrganization,
  recordExists,
  recordTags,
  tagHasActiveRecord,
} from './lookups';
export { markReportExists, setAlarmRecipients } from './record-columns';
export {
  endEarlierRuns,
  findTripAffectedRecords,
  hasLaterRun,
  insertRun,
  lockActiveRecord,
  lockLatestRecord,
  lockPendingRecord,
  lockRecordByStart,
  lockRecordCovering,
  lockRunCandidates,
  updateRecord,
  updateRecordSql,
  type RunCandidates,
} from './writes';
export { recordsByIds, selectAlarmViews } from './repository';
export { createRecordsService } from './service';
