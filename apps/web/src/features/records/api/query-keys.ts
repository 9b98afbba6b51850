/**
 * Query keys of the record calls, named after their paths. Everything under
 * `['xt1', 'records']` is a list or lookup of records: invalidate that prefix
 * after an edit that changes what the lists show.
 */
export const recordsKeys = {
  all: ['xt1', 'records'] as const,
  list: (query: object) => ['xt1', 'records', 'list', query] as const,
  latestScans: (recordIds: readonly string[]) =>
    ['xt1', 'records', 'scans', 'latest', [...recordIds]] as const,
  latestRecord: (tagIdOrSerialNumber: string) =>
    ['xt1', 'records', 'latest-record', tagIdOrSerialNumber] as const,
};
