import { z } from 'zod';
import { defineCall } from '../call';
import type { TPermissionName } from '../permissions';
import { changeReasonShape } from '../entities/alarms';
import {
  ZCarrierDefinition,
  ZDropdownInfo,
  ZNameAndAddressLocation,
  ZNameAndAddressLocationCreate,
  ZProductDefinition,
  ZProductDefinitionForm,
} from '../entities/products';
import { ZStabilityBudgetInput } from '../entities/stability-budget';

/**
 * Calls of spec section 7, "Products": carrier definitions, product
 * definitions, travel locations and the dropdown bundle, all in the session's
 * organization (another organization's id answers 404). Decisions:
 * docs/decisions/configuration.md.
 *
 * Permissions (any one of the listed):
 * - read (GET lists, dropdown info): CONFIG_READ_PERMISSIONS;
 * - create: sysConfigCreate; travel locations also sysAdminLoc;
 * - edit: sysConfigEdit; travel locations also sysAdminLoc.
 */

/**
 * Who may read the definitions: whoever reads data (sysDataRead) or uses the
 * configuration in shipments (sysConfigUse), and whoever may change it or
 * sees the Configuration page (spec section 6: sysAdminLoc, sysAdminUser).
 */
export const CONFIG_READ_PERMISSIONS = [
  'sysDataRead',
  'sysConfigUse',
  'sysConfigCreate',
  'sysConfigEdit',
  'sysAdminLoc',
  'sysAdminUser',
] as const satisfies readonly TPermissionName[];

/** Longest product, carrier or location name. */
export const CONFIG_NAME_MAX_LENGTH = 200;
/** Longest travel location address. */
export const CONFIG_ADDRESS_MAX_LENGTH = 500;
/** Longest time zone name accepted (the longest IANA name is about 30 characters). */
export const CONFIG_TIMEZONE_MAX_LENGTH = 64;
/** Longest cumulative duration string (`[DD ]HH:MM:SS`). */
export const CONFIG_DURATION_MAX_LENGTH = 32;
/** Longest cumulative duration: 3650 days (ten years). */
export const CONFIG_DURATION_MAX_SECONDS = 3650 * 86_400;
/** Thresholds are degrees Celsius between absolute zero and this. */
export const CONFIG_TEMPERATURE_MIN = -273.15;
export const CONFIG_TEMPERATURE_MAX = 1000;
/** Largest num_consecutive_excursions. */
export const CONFIG_MAX_CONSECUTIVE_EXCURSIONS = 100_000;

const name = () => z.string().trim().min(1).max(CONFIG_NAME_MAX_LENGTH);
const temperature = () =>
  z.number().min(CONFIG_TEMPERATURE_MIN).max(CONFIG_TEMPERATURE_MAX).nullable().optional();
const duration = () =>
  z
    .string()
    .max(CONFIG_DURATION_MAX_LENGTH)
    .nullable()
    .optional()
    .describe(
      '`[DD ]HH:MM:SS` (e.g. `1 12:00:00`), at most 3650 days; stored and answered in the ' +
        'canonical form (`36:00:00` becomes `1 12:00:00`). Empty string or null: none.',
    );

// ---------------------------------------------------------------- carriers

/** Body of POST (create) and PATCH (edit) /api/products/carrier-definitions/. */
export const ZCarrierDefinitionForm = z
  .object({
    name: name().describe(
      'Carrier name, trimmed, unique in the organization ignoring case (409 CONFLICT otherwise)',
    ),
  })
  .meta({ id: 'CarrierDefinitionForm' });
export type TCarrierDefinitionForm = z.infer<typeof ZCarrierDefinitionForm>;

export const ZCarrierIdQuery = z.object({
  carrier_id: z.string().min(1).max(40).describe('Id of the carrier definition to edit'),
});

export const productsCarrierDefinitionsList = defineCall({
  operationId: 'productsCarrierDefinitionsList',
  method: 'GET',
  path: '/api/products/carrier-definitions/',
  summary: "The organization's carrier definitions, ordered by name",
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: CONFIG_READ_PERMISSIONS,
  reply: z.array(ZCarrierDefinition),
});

export const productsCarrierDefinitionsCreate = defineCall({
  operationId: 'productsCarrierDefinitionsCreate',
  method: 'POST',
  path: '/api/products/carrier-definitions/',
  summary: 'Create a carrier definition (409 when the name exists in the organization)',
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  permission: 'sysConfigCreate',
  body: ZCarrierDefinitionForm,
  reply: ZCarrierDefinition,
});

export const productsCarrierDefinitionsUpdate = defineCall({
  operationId: 'productsCarrierDefinitionsUpdate',
  method: 'PATCH',
  path: '/api/products/carrier-definitions/',
  summary: 'Rename a carrier definition (query carrier_id)',
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  permission: 'sysConfigEdit',
  query: ZCarrierIdQuery,
  body: ZCarrierDefinitionForm.partial().meta({ id: 'CarrierDefinitionUpdate' }),
  reply: ZCarrierDefinition,
});

// ---------------------------------------------------------------- products

const productFields = {
  product_name: name().describe('Product name, trimmed'),
  high_threshold: temperature().describe('°C; at least low_threshold when both are set'),
  low_threshold: temperature().describe('°C; at most high_threshold when both are set'),
  num_consecutive_excursions: z
    .number()
    .int()
    .min(1)
    .max(CONFIG_MAX_CONSECUTIVE_EXCURSIONS)
    .nullable()
    .optional()
    .describe('Consecutive points beyond a threshold that make an alarm; default (and null) 1'),
  cumulative_high_threshold: temperature().describe(
    '°C; at least cumulative_low_threshold when both are set',
  ),
  cumulative_low_threshold: temperature().describe(
    '°C; at most cumulative_high_threshold when both are set',
  ),
  cumulative_duration_high: duration(),
  cumulative_duration_low: duration(),
  stability_budget: ZStabilityBudgetInput,
};

/**
 * Body of POST /api/products/product-definitions/: the contract's product
 * form (`product_name` required) with bounds, so absurd input is a 400.
 */
export const ZProductDefinitionCreate = ZProductDefinitionForm.extend(productFields).meta({
  id: 'ProductDefinitionCreate',
});
export type TProductDefinitionCreate = z.infer<typeof ZProductDefinitionCreate>;

/** Body of PATCH /api/products/product-definitions/: any subset of the creation fields. */
export const ZProductDefinitionUpdate = ZProductDefinitionCreate.partial().meta({
  id: 'ProductDefinitionUpdate',
});
export type TProductDefinitionUpdate = z.infer<typeof ZProductDefinitionUpdate>;

export const ZProductIdQuery = z.object({
  product_id: z.string().min(1).max(40).describe('Id of the product definition to edit'),
});

export const productsProductDefinitionsList = defineCall({
  operationId: 'productsProductDefinitionsList',
  method: 'GET',
  path: '/api/products/product-definitions/',
  summary: "The organization's product definitions, ordered by product name",
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: CONFIG_READ_PERMISSIONS,
  reply: z.array(ZProductDefinition),
});

export const productsProductDefinitionsCreate = defineCall({
  operationId: 'productsProductDefinitionsCreate',
  method: 'POST',
  path: '/api/products/product-definitions/',
  summary: 'Create a product definition',
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  permission: 'sysConfigCreate',
  body: ZProductDefinitionCreate,
  reply: ZProductDefinition,
});

export const productsProductDefinitionsUpdate = defineCall({
  operationId: 'productsProductDefinitionsUpdate',
  method: 'PATCH',
  path: '/api/products/product-definitions/',
  summary: 'Edit a product definition (query product_id); null clears an optional field',
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  permission: 'sysConfigEdit',
  query: ZProductIdQuery,
  body: ZProductDefinitionUpdate,
  reply: ZProductDefinition,
});

// ---------------------------------------------------------------- travel locations

const locationFields = {
  name: name().describe('Location name, trimmed'),
  address: z.string().trim().min(1).max(CONFIG_ADDRESS_MAX_LENGTH).describe('Postal address'),
  latitude: z
    .number()
    .min(-90)
    .max(90)
    .describe('Degrees, -90 to 90 (a location is a real place: the -91 sentinel is refused)'),
  longitude: z
    .number()
    .min(-180)
    .max(180)
    .describe('Degrees, -180 to 180 (the -181 sentinel is refused)'),
  origin: z.boolean().optional().describe('Offered as a shipper (origin); default false'),
  destination: z
    .boolean()
    .optional()
    .describe('Offered as a receiver (destination); default false'),
  timezone: z
    .string()
    .max(CONFIG_TIMEZONE_MAX_LENGTH)
    .nullable()
    .optional()
    .describe(
      'A supported IANA time zone (a known alias is stored as its canonical zone); ' +
        'empty string or null: none',
    ),
};

/**
 * Body of POST /api/products/travel-locations/: the contract's creation form
 * (name, address, latitude and longitude required) with bounds.
 */
export const ZTravelLocationCreate = ZNameAndAddressLocationCreate.extend(locationFields).meta({
  id: 'TravelLocationCreate',
});
export type TTravelLocationCreate = z.infer<typeof ZTravelLocationCreate>;

/** Body of PATCH /api/products/travel-locations/: any subset of the creation fields. */
export const ZTravelLocationUpdate = ZTravelLocationCreate.partial()
  .extend(changeReasonShape)
  .meta({
    id: 'TravelLocationUpdate',
    description:
      'Any subset of the creation fields. Moving a location re-evaluates the trips of the active ' +
      'records that use it: `reason` (and a signature when an alarm closes) as for a trip edit.',
  });
export type TTravelLocationUpdate = z.infer<typeof ZTravelLocationUpdate>;

export const ZTravelLocationIdQuery = z.object({
  travel_location_id: z.string().min(1).max(40).describe('Id of the travel location to edit'),
});

export const productsTravelLocationsList = defineCall({
  operationId: 'productsTravelLocationsList',
  method: 'GET',
  path: '/api/products/travel-locations/',
  summary: "The organization's travel locations, ordered by name",
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: CONFIG_READ_PERMISSIONS,
  reply: z.array(ZNameAndAddressLocation),
});

export const productsTravelLocationsCreate = defineCall({
  operationId: 'productsTravelLocationsCreate',
  method: 'POST',
  path: '/api/products/travel-locations/',
  summary: 'Create a travel location',
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  permission: ['sysConfigCreate', 'sysAdminLoc'],
  body: ZTravelLocationCreate,
  reply: ZNameAndAddressLocation,
});

export const productsTravelLocationsUpdate = defineCall({
  operationId: 'productsTravelLocationsUpdate',
  method: 'PATCH',
  path: '/api/products/travel-locations/',
  summary: 'Edit a travel location (query travel_location_id)',
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  permission: ['sysConfigEdit', 'sysAdminLoc'],
  query: ZTravelLocationIdQuery,
  body: ZTravelLocationUpdate,
  reply: ZNameAndAddressLocation,
});

// ---------------------------------------------------------------- dropdown bundle

export const productsDropdownInfo = defineCall({
  operationId: 'productsDropdownInfo',
  method: 'GET',
  path: '/api/products/dropdown-info/',
  summary:
    'Product definitions, origin locations (origin true), destination locations ' +
    '(destination true) and carrier definitions of the organization, each ordered by name',
  tag: 'products',
  auth: 'session',
  scope: 'organization',
  apiKey: 'read',
  permission: CONFIG_READ_PERMISSIONS,
  reply: ZDropdownInfo,
});

export const productsCalls = [
  productsCarrierDefinitionsList,
  productsCarrierDefinitionsCreate,
  productsCarrierDefinitionsUpdate,
  productsProductDefinitionsList,
  productsProductDefinitionsCreate,
  productsProductDefinitionsUpdate,
  productsTravelLocationsList,
  productsTravelLocationsCreate,
  productsTravelLocationsUpdate,
  productsDropdownInfo,
] as const;
