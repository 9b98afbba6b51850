import { xt1CalibrationList, type TCalibrationSummary } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET /api/devices/xt1/calibration/?device_id=: the tag's certificates, latest calibration first. */
export function getCalibrations(
  deviceId: number,
  signal?: AbortSignal,
): Promise<TCalibrationSummary[]> {
  return callApi(xt1CalibrationList, { query: { device_id: deviceId }, signal });
}

export function calibrationsQueryOptions(deviceId: number) {
  return queryOptions({
    queryKey: ['xt1', 'calibration', deviceId] as const,
    queryFn: ({ signal }) => getCalibrations(deviceId, signal),
  });
}

export function useCalibrations(deviceId: number | null) {
  return useQuery({
    ...calibrationsQueryOptions(deviceId ?? 0),
    enabled: deviceId !== null,
  });
}
