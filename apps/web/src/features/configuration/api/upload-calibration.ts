import {
  xt1CalibrationUpload,
  type TCalibrationUpload,
  type TCalibrationUploadReply,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { calibrationKey } from './list-calibrations';

/** POST /api/devices/xt1/calibration/: a new certificate (an older one of the tag stays). */
export function uploadCalibration(body: TCalibrationUpload): Promise<TCalibrationUploadReply> {
  return callApi(xt1CalibrationUpload, { body });
}

/** Uploads, then refreshes every certificate list (and the devices' calibration chips). */
export function useUploadCalibration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadCalibration,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: calibrationKey }),
        queryClient.invalidateQueries({ queryKey: ['xt1', 'details'] }),
      ]),
  });
}
