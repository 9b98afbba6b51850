/**
 * The ingest module's entry for other modules: recompute a record after a
 * change made elsewhere, re-evaluate the active records' trips after a
 * geo-fence or travel location change, a new tag of an organization (and a
 * tag's state after it moved), a record as ingest reads it, and the upload
 * calls themselves (for the demo seed; the routes are `routes.ts`).
 */
export { recomputeRecord, type RecomputeResult } from './reevaluate';
export { findRecord, insertTag, refreshTagState } from './repository';
export * from './service';
