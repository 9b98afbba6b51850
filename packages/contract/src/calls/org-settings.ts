import { z } from 'zod';
import { defineCall } from '../call';
import { ZDistanceUnit } from '../enums';
import { changeReasonShape } from '../entities/alarms';
import { ZExpiredCalibrationStart } from '../entities/calibration';
import { ZOrganizationSettings } from '../entities/org-settings';

/**
 * GET and PATCH /api/auth/org-settings/ (spec section 7): the geo-fence of the
 * session's organization (domain rules section 4). Decisions:
 * docs/decisions/configuration.md.
 *
 * Units: a radius is stored in metres. `*_radius_meters` is always metres, in
 * the reply and in the PATCH body alike, so sending back what GET answered
 * changes nothing; `*_radius_units` is the unit the user chose to see the
 * radius in (any of DISTANCE_UNITS). To enter a radius in a unit, send
 * `*_radius` (a number in `*_radius_units`, or in the stored unit when no unit
 * is sent): the server converts it to metres (1 mi is stored as 1609.344 m).
 * Giving both `*_radius` and `*_radius_meters` is a 400.
 */

/** Largest geo-fence radius: 1,000 km. */
export const GEO_FENCE_MAX_RADIUS_METRES = 1_000_000;
/** Largest number of consecutive samples to arrive or depart. */
export const GEO_FENCE_MAX_POINTS = 100;

const radiusMetres = (what: string) =>
  z
    .number()
    .positive()
    .max(GEO_FENCE_MAX_RADIUS_METRES)
    .optional()
    .describe(`${what} radius in metres, more than 0 and at most 1,000,000 (1,000 km)`);

const radiusInUnit = (what: string, prefix: string) =>
  z
    .number()
    .positive()
    .optional()
    .describe(
      `${what} radius expressed in \`${prefix}_radius_units\` (or in the stored unit when no ` +
        `unit is sent); converted to metres, at most 1,000 km. Not with \`${prefix}_radius_meters\`.`,
    );

const unit = (what: string) =>
  ZDistanceUnit.optional().describe(
    `Unit the ${what} radius is shown in (and the unit of \`*_radius\` when that is sent)`,
  );

const points = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(GEO_FENCE_MAX_POINTS)
    .optional()
    .describe(`Consecutive location samples needed to ${what}, 1 to 100`);

/** The geo-fence part of the PATCH body: any subset of the settings. */
export const ZGeoFenceSettingsUpdate = z
  .object({
    id: z.string().optional().describe('Ignored (the organization of the session is edited)'),
    arrival_radius_meters: radiusMetres('Arrival'),
    arrival_radius: radiusInUnit('Arrival', 'arrival'),
    arrival_radius_units: unit('arrival'),
    departure_radius_meters: radiusMetres('Departure'),
    departure_radius: radiusInUnit('Departure', 'departure'),
    departure_radius_units: unit('departure'),
    num_points_to_arrive: points('arrive'),
    num_points_to_depart: points('depart'),
  })
  .meta({
    id: 'GeoFenceSettingsUpdate',
    description:
      'Any subset of the geo-fence. `*_radius_meters` is metres (as GET answers it); ' +
      '`*_radius_units` is the display unit; `*_radius` is a value in that unit, converted ' +
      'to metres by the server (1 mi is stored as 1609.344 m).',
  });
export type TGeoFenceSettingsUpdate = z.infer<typeof ZGeoFenceSettingsUpdate>;

/** Longest calibration validity: 10 years. */
export const CALIBRATION_MAX_VALIDITY_MONTHS = 120;
/** Longest due-soon window: a year. */
export const CALIBRATION_MAX_DUE_SOON_DAYS = 365;

/** Bounds of no_data_factor (issue 14 item 4): transmit intervals of silence before a no_data alarm. */
export const NO_DATA_FACTOR_MIN = 1.5;
export const NO_DATA_FACTOR_MAX = 100;

/** The calibration part of the PATCH body: any subset (issue 14 item 7). */
export const ZCalibrationSettingsUpdate = z
  .object({
    calibration_validity_months: z
      .number()
      .int()
      .min(1)
      .max(CALIBRATION_MAX_VALIDITY_MONTHS)
      .optional()
      .describe('Validity of a certificate that states no due date, 1 to 120 months'),
    calibration_due_soon_days: z
      .number()
      .int()
      .min(0)
      .max(CALIBRATION_MAX_DUE_SOON_DAYS)
      .optional()
      .describe('Days before the due date a calibration is DUE_SOON, 0 to 365'),
    expired_calibration_start: ZExpiredCalibrationStart.optional(),
  })
  .meta({ id: 'CalibrationSettingsUpdate' });
export type TCalibrationSettingsUpdate = z.infer<typeof ZCalibrationSettingsUpdate>;

/**
 * Body of PATCH /api/auth/org-settings/: the geo-fence, the calibration
 * settings or both (at least one of them).
 */
export const ZOrganizationSettingsUpdate = z
  .object({
    id: z.string().optional().describe('Ignored (the organization of the session is edited)'),
    geo_fence_settings: ZGeoFenceSettingsUpdate.optional(),
    calibration_settings: ZCalibrationSettingsUpdate.optional(),
    no_data_factor: z
      .number()
      .min(NO_DATA_FACTOR_MIN)
      .max(NO_DATA_FACTOR_MAX)
      .optional()
      .describe('Transmit intervals of silence before a no_data alarm, 1.5 to 100 (default 3)'),
    allow_release_in_transit: z
      .boolean()
      .optional()
      .describe(
        'Allow releasing a shipment before its trip has ended, with a reason (default false)',
      ),
    second_factor_for_signers: z
      .boolean()
      .optional()
      .describe('Require a second factor at every signature (default false)'),
    second_factor_for_administrators: z
      .boolean()
      .optional()
      .describe("Require a second factor at the administrators' sign-in (default false)"),
    ...changeReasonShape,
  })
  .refine(
    (b) =>
      b.geo_fence_settings !== undefined ||
      b.calibration_settings !== undefined ||
      b.no_data_factor !== undefined ||
      b.allow_release_in_transit !== undefined ||
      b.second_factor_for_signers !== undefined ||
      b.second_factor_for_administrators !== undefined,
    {
      message:
        'Send geo_fence_settings, calibration_settings, no_data_factor, allow_release_in_transit, ' +
        'second_factor_for_signers or second_factor_for_administrators',
      path: ['geo_fence_settings'],
    },
  )
  .meta({ id: 'OrganizationSettingsUpdate' });
export type TOrganizationSettingsUpdate = z.infer<typeof ZOrganizationSettingsUpdate>;

export const authOrgSettingsGet = defineCall({
  operationId: 'authOrgSettingsGet',
  method: 'GET',
  path: '/api/auth/org-settings/',
  summary:
    "The session organization's settings (geo-fence; defaults 1000 m and 2 points until changed)",
  tag: 'auth',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  reply: ZOrganizationSettings,
});

export const authOrgSettingsUpdate = defineCall({
  operationId: 'authOrgSettingsUpdate',
  method: 'PATCH',
  path: '/api/auth/org-settings/',
  summary:
    "Change the session organization's geo-fence (radii in metres, see schema) or calibration settings",
  tag: 'auth',
  auth: 'session',
  scope: 'organization',
  permission: ['sysAdminLoc', 'sysAdminOrgInfo', 'sysAdminUser'],
  description:
    'Radii are stored and answered in metres (`*_radius_meters`) with the unit chosen for ' +
    'display (`*_radius_units`). Send a radius either in metres (`*_radius_meters`) or in a ' +
    'unit (`*_radius` with `*_radius_units`); sending back what GET answered changes nothing.',
  body: ZOrganizationSettingsUpdate,
  reply: ZOrganizationSettings,
});

export const orgSettingsCalls = [authOrgSettingsGet, authOrgSettingsUpdate] as const;
