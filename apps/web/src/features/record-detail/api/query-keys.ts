/**
 * Query keys of the record detail view. Everything of one record sits under
 * `['xt1', 'record', id]` (invalidate the record alone with `exact: true`);
 * the aggregates are named after their paths. The record lists are the
 * records feature's (`recordsKeys.all`, `['xt1', 'records']`).
 */
export const recordDetailKeys = {
  record: (recordId: string) => ['xt1', 'record', recordId] as const,
  actions: (recordId: string) => ['xt1', 'record', recordId, 'actions'] as const,
  scans: (recordId: string) => ['xt1', 'record', recordId, 'scans'] as const,
  /** The detail view's alarms: acknowledged and dismissed ones included (spec section 4). */
  alarms: (recordId: string) => ['xt1', 'record', recordId, 'alarms'] as const,
  /** The record's audit trail (GET /api/audit/?record_id=). */
  audit: (recordId: string) => ['xt1', 'record', recordId, 'audit'] as const,
  /** The compact series for the chart: the overview (width only) or a zoom window. */
  series: (recordId: string, window: { width?: number; from?: string; to?: string }) =>
    ['aggregate', 'record-series', recordId, window] as const,
  locations: (recordId: string) => ['aggregate', 'locations', recordId] as const,
};
