import { z } from 'zod';
import { ZDistanceUnit } from '../enums';
import { ZExpiredCalibrationStart } from './calibration';

/**
 * Organization-level entities of spec section 3 ("Organization"): the
 * organization record of the administration lists, the organization settings
 * with the geo-fence, and the data display rules. No field is listed as
 * required.
 */

/**
 * "Geo-fence settings: id, arrival_radius_meters, arrival_radius_units,
 * departure_radius_meters, departure_radius_units, num_points_to_arrive,
 * num_points_to_depart." Each radius is in metres, as its name says; its
 * `_units` is the distance unit the user chose to see it in (domain rules §4:
 * stored with a unit, compared in metres). The PATCH body can also give a
 * radius in a unit (`ZGeoFenceSettingsUpdate`, docs/decisions/configuration.md).
 */
export const ZGeoFenceSettings = z
  .object({
    id: z.string().optional(),
    arrival_radius_meters: z.number().optional().describe('Arrival radius in metres'),
    arrival_radius_units: ZDistanceUnit.optional().describe(
      'Unit the arrival radius is shown in (the value stays in metres)',
    ),
    departure_radius_meters: z.number().optional().describe('Departure radius in metres'),
    departure_radius_units: ZDistanceUnit.optional().describe(
      'Unit the departure radius is shown in (the value stays in metres)',
    ),
    num_points_to_arrive: z.number().int().optional(),
    num_points_to_depart: z.number().int().optional(),
  })
  .meta({
    id: 'GeoFenceSettings',
    description:
      'Radii in metres (`*_radius_meters`); `*_radius_units` is the unit they are shown in.',
  });
export type TGeoFenceSettings = z.infer<typeof ZGeoFenceSettings>;

/**
 * The calibration lifecycle settings of an organization (issue 14 item 7;
 * ours, beyond the spec; docs/decisions/calibration-lifecycle.md).
 */
export const ZCalibrationSettings = z
  .object({
    calibration_validity_months: z
      .number()
      .int()
      .optional()
      .describe('Validity of a certificate that states no due date, in months (default 12)'),
    calibration_due_soon_days: z
      .number()
      .int()
      .optional()
      .describe('A calibration is DUE_SOON this many days before its due date (default 30)'),
    expired_calibration_start: ZExpiredCalibrationStart.optional().describe(
      'Starting a shipment on a tag whose calibration expired: WARN (default) starts it and ' +
        'records the warning, REFUSE answers 409',
    ),
  })
  .meta({ id: 'CalibrationSettings' });
export type TCalibrationSettings = z.infer<typeof ZCalibrationSettings>;

/**
 * "Organization settings: id, geo_fence_settings." Reply of GET and PATCH
 * /api/auth/org-settings/, and the PATCH body; calibration_settings is ours.
 */
export const ZOrganizationSettings = z
  .object({
    id: z.string().optional(),
    geo_fence_settings: ZGeoFenceSettings.optional(),
    calibration_settings: ZCalibrationSettings.optional(),
    no_data_factor: z
      .number()
      .optional()
      .describe(
        'A running rt or nanotag record that sent nothing for longer than its transmit ' +
          'interval times this factor raises a no_data alarm (default 3)',
      ),
    allow_release_in_transit: z
      .boolean()
      .optional()
      .describe(
        'Whether a shipment may be released before its trip has ended (arrived, or the record ' +
          'stopped), with a transit_reason (default false: refused, 409)',
      ),
    second_factor_for_signers: z
      .boolean()
      .optional()
      .describe(
        'Every signature (acknowledgement, closing, release) needs a second factor with the ' +
          'password (default false)',
      ),
    second_factor_for_administrators: z
      .boolean()
      .optional()
      .describe(
        "The organization's administrators (sysAdminUser) give a second factor at sign-in " +
          '(default false)',
      ),
  })
  .meta({ id: 'OrganizationSettings' });
export type TOrganizationSettings = z.infer<typeof ZOrganizationSettings>;

/**
 * "Organization-level record: id, user_ids, num_devices, num_records,
 * latest_activity, settings, created, name."
 */
export const ZOrganizationLevelRecord = z
  .object({
    id: z.string().optional(),
    user_ids: z.array(z.string()).optional(),
    num_devices: z.number().int().optional(),
    num_records: z.number().int().optional(),
    latest_activity: z.string().nullable().optional(),
    settings: ZOrganizationSettings.optional(),
    created: z.string().optional(),
    name: z.string().optional(),
  })
  .meta({ id: 'OrganizationLevelRecord' });
export type TOrganizationLevelRecord = z.infer<typeof ZOrganizationLevelRecord>;

/**
 * "Data display rules: fields not shown." The spec gives no field, so the rule
 * is an open object: an optional id plus any other fields, kept as sent
 * (GET, POST and PATCH /api/data-display-rules/). Tighten it once the product
 * fixes the fields.
 */
export const ZDataDisplayRule = z
  .looseObject({
    id: z.string().optional(),
  })
  .meta({ id: 'DataDisplayRule' });
export type TDataDisplayRule = z.infer<typeof ZDataDisplayRule>;
