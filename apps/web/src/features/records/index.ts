/**
 * Records: what other features may use (light: chips, links, the lookup box,
 * the record list). The All Records page loads lazily through `./routes`; its
 * server-mode grid lives in `components/server-grid`, so that nothing here
 * pulls the data grid into another screen's chunk.
 */
export { getLatestRecord, latestRecordQueryOptions } from './api/get-latest-record';
export {
  listRecords,
  recordsQueryOptions,
  useRecords,
  type RecordsQuery,
} from './api/list-records';
export { recordsKeys } from './api/query-keys';
export {
  SerialLookupBox,
  serialLookupMessage,
  type SerialLookupFailure,
} from './components/serial-lookup-box';
export {
  AlarmsAcknowledgedChip,
  RecordAlarmChip,
  RunningChip,
  StatusChip,
  TripChip,
  tripStatusLabel,
} from './components/status-chips';
export { DecisionChip } from './components/decision-chip';
export { TimeZoneNote, timeZoneText } from './components/time-zone-note';
export { lastTransmissionOf, type LastTransmission } from './last-transmission';
export {
  ALL_DEVICES_PATH,
  ALL_RECORDS_PATH,
  GRID_DEFAULT_PAGE_SIZE,
  GRID_PAGE_SIZES,
  allDevicesHref,
  allRecordsHref,
  recordHref,
  type GridLink,
} from './record-links';
export {
  RecordList,
  RecordListHeader,
  RecordListRow,
  RecordListSkeleton,
} from './components/record-list';
export {
  REVIEW_STATE_FILTER_LABELS,
  recordsWithReviewState,
  reviewStateFilterOf,
} from './components/review-state-filter';
