import { z } from 'zod';
import { ZTagType } from '../enums';

/**
 * Calibration entities of spec section 3 ("Tag messages and uploads",
 * "Calibration ... Certificate link"). No field is listed as required.
 */

/** "Calibration: device_id (number), tag_type, calibration_timestamp." */
export const ZCalibration = z
  .object({
    device_id: z.number().int().optional(),
    tag_type: ZTagType.optional(),
    calibration_timestamp: z.string().nullable().optional(),
  })
  .meta({ id: 'Calibration' });
export type TCalibration = z.infer<typeof ZCalibration>;

/**
 * A tag's calibration state at a time (issue 14 item 7,
 * docs/decisions/calibration-lifecycle.md): NONE without a certificate, else
 * VALID, DUE_SOON (within the organization's calibration_due_soon_days of the
 * due date) or EXPIRED (from the due date on).
 */
export const CALIBRATION_STATES = ['NONE', 'VALID', 'DUE_SOON', 'EXPIRED'] as const;
export const ZCalibrationState = z.enum(CALIBRATION_STATES);
export type TCalibrationState = z.infer<typeof ZCalibrationState>;

/** What starting a shipment on a tag whose calibration expired does. */
export const EXPIRED_CALIBRATION_STARTS = ['WARN', 'REFUSE'] as const;
export const ZExpiredCalibrationStart = z.enum(EXPIRED_CALIBRATION_STARTS);
export type TExpiredCalibrationStart = z.infer<typeof ZExpiredCalibrationStart>;

/**
 * A record's `tag_calibration`: the Calibration of the tag's latest
 * certificate in the record's organization (latest calibration time, then
 * latest upload), with the certificate's id, the link to its PDF and its due
 * date (issue 14 item 7).
 */
export const ZRecordCalibration = ZCalibration.extend({
  calibration_pdf_id: z.string().optional(),
  pdf_url: z.string().optional(),
  calibration_due: z.string().optional().describe('When the next calibration is due (ISO 8601)'),
}).meta({ id: 'RecordCalibration' });
export type TRecordCalibration = z.infer<typeof ZRecordCalibration>;

/** "Equipment: manufacturer, model, description, serial_number." */
export const ZCalibrationEquipment = z
  .object({
    manufacturer: z.string().optional(),
    model: z.string().optional(),
    description: z.string().nullable().optional(),
    serial_number: z.string().optional(),
  })
  .meta({ id: 'CalibrationEquipment' });
export type TCalibrationEquipment = z.infer<typeof ZCalibrationEquipment>;

/** "Specification: temperature_range_low, temperature_range_high, dut_error." */
export const ZCalibrationSpecification = z
  .object({
    temperature_range_low: z.number().optional(),
    temperature_range_high: z.number().optional(),
    dut_error: z.number().optional(),
  })
  .meta({ id: 'CalibrationSpecification' });
export type TCalibrationSpecification = z.infer<typeof ZCalibrationSpecification>;

/**
 * "Certificate: model_name, equipment list, specifications list,
 * calibrated_devices list." The body of the calibration upload
 * (POST /api/devices/xt1/calibration/).
 */
export const ZCalibrationCertificate = z
  .object({
    model_name: z.string().optional(),
    equipment: z.array(ZCalibrationEquipment).optional(),
    specifications: z.array(ZCalibrationSpecification).optional(),
    calibrated_devices: z.array(ZCalibration).optional(),
  })
  .meta({ id: 'CalibrationCertificate' });
export type TCalibrationCertificate = z.infer<typeof ZCalibrationCertificate>;

/** "Certificate link: pdf_url." */
export const ZCalibrationCertificateLink = z
  .object({ pdf_url: z.string().optional() })
  .meta({ id: 'CalibrationCertificateLink' });
export type TCalibrationCertificateLink = z.infer<typeof ZCalibrationCertificateLink>;
