/**
 * The ingest module's entry for other modules: recompute a record after a
 * change made elsewhere (or a tag's state after it moved), a new tag of an
 * organization, and the action type names.
 */
export { reevaluateRecord, reevaluateTrips, actionTypeDisplay } from './service';
export { recomputeRecord, type RecomputeResult } from './reevaluate';
export { insertTag, refreshTagState } from './repository';
