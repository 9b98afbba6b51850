/**
 * The records module's entry: other modules import it from here only (issue 12).
 */
export { presentAlarm } from './presenter';
export { recordsByIds, selectAlarmViews } from './repository';
export { createRecordsService } from './service';
export { recordsRoutes } from './routes';
