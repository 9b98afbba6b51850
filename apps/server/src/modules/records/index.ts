/**
 * The records module's entry: other modules import it from here only (issue 12).
 * The table's lookups and writes, and what the lists module reads records
 * through: the record view, its fields and filters, the kept counts, the
 * presenter.
 */
export { presentAlarm, presentRecord, presentScan, presentTag, iso, secondsIso } from './presenter';
export type { RecordView, ScanView, TagView } from './presenter';
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
export { recordsByIds } from './repository';
export { listAlarms, selectAlarmViews } from './alarm-views';
export { selectScanViews, withScanTemperatures } from './scan-views';
export { createRecordsService } from './service';
// What the lists read records through.
export {
  countRecords,
  receiverOfRecord,
  recordViewRow,
  scannerOfRecord,
  selectRecordViews,
  shipperOfRecord,
  toRecordView,
  type RecordViewRow,
} from './record-views';
export {
  DEFAULT_ORDER_BY,
  lastReceiver,
  lastRecord,
  lastShipper,
  partyOf,
  receiver,
  RECORD_FIELDS,
  RECORD_SEARCH_TEXT,
  scannedBy,
  shipper,
  TAG_FIELDS,
} from './fields';
export { compileFilter, compileOrderBy, escapeLike, isFallbackOrder } from './filter-sql';
export { calibrationAt } from './calibration-views';
export { dispositionCondition } from './disposition';
export { keptDecisionTotalOf, reviewStateCondition } from './review-state';
export {
  cutAtBuckets,
  parseInstantRange,
  planStableInstant,
  sqlInstant,
  wholeBucketsOf,
} from './iso-range';
export {
  COUNT_ROWS_TO_FOLD,
  countRowsOf,
  foldCountsIfMany,
  foldHourCounts,
  keptCountOfFilter,
  keptFilterTotalOf,
  organizationCounts,
  recordTotalOf,
} from './kept-counts';
export { latestCountOf, latestOfTag } from './latest-of-tag';
export { tagsOfRange, type RangeTagColumns } from './tag-sets';
