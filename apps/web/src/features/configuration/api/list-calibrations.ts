import { xt1CalibrationList, type TCalibrationSummary } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** Every key of the calibration calls starts with this (the record page's per-tag list too). */
export const calibrationKey = ['xt1', 'calibration'] as const;

/** GET /api/devices/xt1/calibration/ without device_id: every tag's certificates, by tag. */
export function listCalibrations(signal?: AbortSignal): Promise<TCalibrationSummary[]> {
  return callApi(xt1CalibrationList, { query: {}, signal });
}

export function useCalibrationCertificates() {
  return useQuery(
    queryOptions({
      queryKey: [...calibrationKey, 'all'] as const,
      queryFn: ({ signal }) => listCalibrations(signal),
    }),
  );
}
