import { z } from 'zod';
import { ZNameAddressRef, cumulativeFields, thresholdFields } from './common';
import { ZStabilityBand } from './stability-budget';

/**
 * Products, carriers, travel locations and shipment details of spec section 3
 * ("Products, carriers, locations and notification rules"). `organization` is
 * the owning organization's id.
 */

/**
 * "Product definition: id, created, product_name, high_threshold,
 * low_threshold, num_consecutive_excursions, cumulative_high_threshold,
 * cumulative_low_threshold, cumulative_duration_high, cumulative_duration_low
 * (strings), organization." No field required in the entity.
 */
export const ZProductDefinition = z
  .object({
    id: z.string().optional(),
    created: z.string().optional(),
    product_name: z.string().optional(),
    ...thresholdFields,
    num_consecutive_excursions: z.number().int().nullable().optional(),
    ...cumulativeFields,
    organization: z.string().optional(),
    /** Ours (issue 14 item 3): docs/decisions/stability-budget.md. */
    stability_budget: z
      .array(ZStabilityBand)
      .nullable()
      .optional()
      .describe('Bands of time allowed beyond a limit, summed across the legs of a shipment'),
  })
  .meta({ id: 'ProductDefinition' });
export type TProductDefinition = z.infer<typeof ZProductDefinition>;

/**
 * "product_name is required in one variant": the creation and edit form
 * (POST and PATCH /api/products/product-definitions/). id, created and
 * organization are the server's.
 */
export const ZProductDefinitionForm = ZProductDefinition.omit({
  id: true,
  created: true,
  organization: true,
})
  .extend({ product_name: z.string().trim().min(1) })
  .meta({ id: 'ProductDefinitionForm' });
export type TProductDefinitionForm = z.infer<typeof ZProductDefinitionForm>;

/** "Carrier definition: id, created, name, organization." */
export const ZCarrierDefinition = z
  .object({
    id: z.string().optional(),
    created: z.string().optional(),
    name: z.string().optional(),
    organization: z.string().optional(),
  })
  .meta({ id: 'CarrierDefinition' });
export type TCarrierDefinition = z.infer<typeof ZCarrierDefinition>;

/**
 * "Name-and-address location: id, created, name, address, latitude, longitude,
 * origin (boolean), destination (boolean), timezone, organization." A travel
 * location; shippers are origins, receivers destinations.
 */
export const ZNameAndAddressLocation = z
  .object({
    id: z.string().optional(),
    created: z.string().optional(),
    name: z.string().optional(),
    address: z.string().optional(),
    latitude: z.number().nullable().optional(),
    longitude: z.number().nullable().optional(),
    origin: z.boolean().optional(),
    destination: z.boolean().optional(),
    timezone: z.string().nullable().optional(),
    organization: z.string().optional(),
  })
  .meta({ id: 'NameAndAddressLocation' });
export type TNameAndAddressLocation = z.infer<typeof ZNameAndAddressLocation>;

/** "Creation requires name, address, latitude and longitude." */
export const ZNameAndAddressLocationCreate = z
  .object({
    name: z.string().trim().min(1),
    address: z.string().trim().min(1),
    latitude: z.number(),
    longitude: z.number(),
    origin: z.boolean().optional(),
    destination: z.boolean().optional(),
    timezone: z.string().nullable().optional(),
  })
  .meta({ id: 'NameAndAddressLocationCreate' });
export type TNameAndAddressLocationCreate = z.infer<typeof ZNameAndAddressLocationCreate>;

/**
 * "Definitions bundle (dropdown info): product_definitions, origin_locations,
 * destination_locations, carrier_definitions." Reply of
 * GET /api/products/dropdown-info/.
 */
export const ZDropdownInfo = z
  .object({
    product_definitions: z.array(ZProductDefinition).optional(),
    origin_locations: z.array(ZNameAndAddressLocation).optional(),
    destination_locations: z.array(ZNameAndAddressLocation).optional(),
    carrier_definitions: z.array(ZCarrierDefinition).optional(),
  })
  .meta({ id: 'DropdownInfo' });
export type TDropdownInfo = z.infer<typeof ZDropdownInfo>;

/**
 * "Shipment details: id, record_id, references, program_name,
 * shipper_name_address, receiver_name_address, carrier, product_designation,
 * po_number. Text fields default to empty."
 */
export const ZShipmentDetails = z
  .object({
    id: z.string().optional(),
    record_id: z.string().optional(),
    primary_reference: z.string().default(''),
    secondary_reference: z.string().default(''),
    shipping_reference: z.string().default(''),
    program_name: z.string().default(''),
    shipper_name_address: ZNameAddressRef.nullable().optional(),
    receiver_name_address: ZNameAddressRef.nullable().optional(),
    carrier: z.string().default(''),
    product_designation: z.string().default(''),
    po_number: z.string().default(''),
  })
  .meta({ id: 'ShipmentDetails' });
export type TShipmentDetails = z.infer<typeof ZShipmentDetails>;
