import { z } from 'zod';
import { ZTagType } from '../enums';
import { ZCalibrationState } from './calibration';
import { ZNameAddressRef, referenceFields } from './common';
import { ZCoordinates } from './series';

/** Tags and tag assignment (spec section 3, "Records, scans, alarms and tags" and "Organization"). */

/** "Tag: id (number), created, serial_number, belongs_to." belongs_to is the owning organization's id. */
export const ZTag = z
  .object({
    id: z.number().int().optional(),
    created: z.string().optional(),
    serial_number: z.string().optional(),
    belongs_to: z.string().nullable().optional(),
  })
  .meta({ id: 'Tag' });
export type TTag = z.infer<typeof ZTag>;

/**
 * "The extended view adds references, program_name, shipper and receiver
 * name-and-address, carrier, product_designation, po_number, last_record_id,
 * tag_type, last_action_taken, last_scanned, last_scanned_location, last_temp,
 * running (boolean)." The rows of GET /api/devices/xt1/details/.
 */
export const ZTagExtended = ZTag.extend({
  ...referenceFields,
  program_name: z.string().nullable().optional(),
  shipper_name_address: ZNameAddressRef.nullable().optional(),
  receiver_name_address: ZNameAddressRef.nullable().optional(),
  carrier: z.string().nullable().optional(),
  product_designation: z.string().nullable().optional(),
  po_number: z.string().nullable().optional(),
  last_record_id: z.string().nullable().optional(),
  tag_type: ZTagType.optional(),
  last_action_taken: z.string().nullable().optional(),
  last_scanned: z.string().nullable().optional(),
  last_scanned_location: ZCoordinates.nullable().optional(),
  last_temp: z.number().nullable().optional(),
  running: z.boolean().optional(),
  // Calibration lifecycle (issue 14 item 7; ours, beyond the spec).
  calibration_state: ZCalibrationState.optional().describe(
    "The tag's calibration state now, from its latest certificate in the organization",
  ),
  calibration_due: z
    .string()
    .nullable()
    .optional()
    .describe('Due date of that certificate (null: none)'),
}).meta({ id: 'TagExtended' });
export type TTagExtended = z.infer<typeof ZTagExtended>;

/**
 * "Tag assignment request: organization_id and tag_ids." Each entry of tag_ids
 * is a tag id or a serial number (domain rules §7), hence strings.
 */
export const ZTagAssignmentRequest = z
  .object({
    organization_id: z.string().optional(),
    tag_ids: z.array(z.string()).optional(),
  })
  .meta({ id: 'TagAssignmentRequest' });
export type TTagAssignmentRequest = z.infer<typeof ZTagAssignmentRequest>;

/** "Result: assigned_ids and failed_ids." The entries as they were sent. */
export const ZTagAssignmentResult = z
  .object({
    assigned_ids: z.array(z.string()).optional(),
    failed_ids: z.array(z.string()).optional(),
  })
  .meta({ id: 'TagAssignmentResult' });
export type TTagAssignmentResult = z.infer<typeof ZTagAssignmentResult>;

/**
 * "Tag id only request: tag_id." Also the body of the real-time start and stop
 * requests, which "carry only tag_id" (spec section 4).
 */
export const ZTagIdOnly = z.object({ tag_id: z.string().optional() }).meta({ id: 'TagIdOnly' });
export type TTagIdOnly = z.infer<typeof ZTagIdOnly>;
