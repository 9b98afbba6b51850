import { xt1LatestRecord, type TRecord } from '@coldtrace/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { recordsKeys } from './query-keys';

/**
 * GET /api/devices/xt1/latest-record/: the latest record of a tag, by serial
 * number or tag id (404 when the tag has none).
 */
export function getLatestRecord(
  tagIdOrSerialNumber: string,
  signal?: AbortSignal,
): Promise<TRecord> {
  return callApi(xt1LatestRecord, {
    query: { tag_id_or_serial_number: tagIdOrSerialNumber },
    signal,
  });
}

export function latestRecordQueryOptions(tagIdOrSerialNumber: string) {
  return queryOptions({
    queryKey: recordsKeys.latestRecord(tagIdOrSerialNumber),
    queryFn: ({ signal }) => getLatestRecord(tagIdOrSerialNumber, signal),
    staleTime: 0,
  });
}
