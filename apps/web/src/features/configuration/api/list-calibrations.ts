import { MAX_PAGE_SIZE, xt1CalibrationList, type TCalibrationSummary } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApiWithTotal } from '../../../lib/api-client';

/** Every key of the calibration calls starts with this (the record page's per-tag list too). */
export const calibrationKey = ['xt1', 'calibration'] as const;

/**
 * GET /api/devices/xt1/calibration/ without device_id: every tag's
 * certificates, by tag. The call is paged (1,000 a page); the section shows
 * the whole history, so the pages are read until `x-total-count` is reached.
 */
export async function listCalibrations(signal?: AbortSignal): Promise<TCalibrationSummary[]> {
  const all: TCalibrationSummary[] = [];
  for (let page = 1; ; page++) {
    const { data, totalCount } = await callApiWithTotal(xt1CalibrationList, {
      query: { page_number: page, page_size: MAX_PAGE_SIZE },
      signal,
    });
    all.push(...data);
    if (data.length < MAX_PAGE_SIZE || totalCount === undefined || all.length >= totalCount) {
      return all;
    }
  }
}

export function useCalibrationCertificates() {
  return useQuery(
    queryOptions({
      queryKey: [...calibrationKey, 'all'] as const,
      queryFn: ({ signal }) => listCalibrations(signal),
    }),
  );
}
