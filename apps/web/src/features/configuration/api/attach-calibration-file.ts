import { xt1CalibrationFileUpload } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { calibrationKey } from './list-calibrations';

export interface AttachCalibrationFile {
  calibrationPdfId: string;
  file: File;
}

/**
 * POST /api/devices/xt1/calibration/file/: the calibration lab's PDF, sent as
 * it is (application/pdf), attached to a certificate. A later one replaces it
 * as the certificate's PDF; the server keeps the earlier ones.
 */
export async function attachCalibrationFile({ calibrationPdfId, file }: AttachCalibrationFile) {
  const body = new Uint8Array(await file.arrayBuffer());
  return callApi(xt1CalibrationFileUpload, {
    query: { calibration_pdf_id: calibrationPdfId, file_name: file.name },
    body,
  });
}

/** Attaches, then refreshes every certificate list. */
export function useAttachCalibrationFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: attachCalibrationFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calibrationKey }),
  });
}
