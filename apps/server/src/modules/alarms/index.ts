/**
 * The alarms module's entry: the only way in from outside the module (issue 12).
 * The one home of an alarm's lifecycle: raised, updated and closed as a
 * recomputation of a record (ingest) evaluates it (`lifecycle.ts`), acknowledged
 * and dismissed by people (`service.ts`, `routes.ts`).
 */
export {
  auditAlarms,
  evaluateAlarms,
  insertAlarmsSql,
  type AlarmChange,
  type EvaluatedAlarms,
  type QueuedWrites,
  type TripWindow,
} from './lifecycle';
export { recordHasAlarms } from './lifecycle-repository';
export { DEFAULT_NO_DATA_FACTOR, raiseNoDataAlarms } from './no-data';
export type { RecomputeRecord } from './service';
