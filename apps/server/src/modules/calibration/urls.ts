/** The link to the PDF of a calibration certificate, for one of its devices. */
export const certificateUrl = (id: string, deviceId: number) =>
  `/api/devices/xt1/calibration/pdf/?calibration_pdf_id=${encodeURIComponent(id)}&device_id=${deviceId}`;
