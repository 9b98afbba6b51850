import { z } from 'zod';
import { ZDistanceUnit } from '../enums';

/**
 * Organization-level entities of spec section 3 ("Organization"): the
 * organization record of the administration lists, the organization settings
 * with the geo-fence, and the data display rules. No field is listed as
 * required.
 */

/**
 * "Geo-fence settings: id, arrival_radius_meters, arrival_radius_units,
 * departure_radius_meters, departure_radius_units, num_points_to_arrive,
 * num_points_to_depart." Despite the `_meters` suffix each radius is expressed
 * in its `_units` distance unit (domain rules §4).
 */
export const ZGeoFenceSettings = z
  .object({
    id: z.string().optional(),
    arrival_radius_meters: z.number().optional(),
    arrival_radius_units: ZDistanceUnit.optional(),
    departure_radius_meters: z.number().optional(),
    departure_radius_units: ZDistanceUnit.optional(),
    num_points_to_arrive: z.number().int().optional(),
    num_points_to_depart: z.number().int().optional(),
  })
  .meta({ id: 'GeoFenceSettings' });
export type TGeoFenceSettings = z.infer<typeof ZGeoFenceSettings>;

/**
 * "Organization settings: id, geo_fence_settings." Reply of GET and PATCH
 * /api/auth/org-settings/, and the PATCH body.
 */
export const ZOrganizationSettings = z
  .object({
    id: z.string().optional(),
    geo_fence_settings: ZGeoFenceSettings.optional(),
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
