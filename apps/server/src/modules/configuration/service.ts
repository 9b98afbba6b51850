import {
  type TCarrierDefinition,
  type TCarrierDefinitionForm,
  type TDropdownInfo,
  type TCalibrationSettingsUpdate,
  type TGeoFenceSettingsUpdate,
  type TNameAndAddressLocation,
  type TProductDefinition,
  type TProductDefinitionUpdate,
  type TTravelLocationUpdate,
} from '@coldtrace/contract';
import type { Database } from '../../db/client';
import { AppError, notFound } from '../../kernel/errors';
import { parseRowId } from '../../kernel/ids';
import type { Principal } from '../../kernel/principal';
import { reevaluateTrips } from '../ingest';
import type { AlarmEventSender } from '../../jobs/catalogue';
import { auditConfiguration, type ReasonedChange } from './audit';
import { getOrgSettings, updateOrgSettings, type SettingFlags } from './org-settings';
import { presentCarrier, presentLocation, presentProduct } from './presenter';
import * as repo from './repository';
import {
  FieldErrors,
  isUniqueViolation,
  productValues,
  checkProduct,
  locationValues,
} from './values';

/**
 * Configuration of an organization (issue 3, item 1): carrier and product
 * definitions, travel locations, the dropdown bundle and the geo-fence
 * settings. Everything works in the organization the route names
 * (`organizationId()`); an id of another organization (or one that cannot be
 * an id) answers 404.
 * Decisions: docs/decisions/configuration.md.
 */

export interface ConfigurationDeps {
  db: Database;
  /** Where alarms raised by a re-evaluation are announced; null: nobody is notified. */
  jobs: AlarmEventSender | null;
}

// ------------------------------------------------------------ carriers
async function listCarriers(db: Database, organizationId: string): Promise<TCarrierDefinition[]> {
  return (await repo.listCarriers(db, organizationId)).map(presentCarrier);
}

async function createCarrier(
  db: Database,
  organizationId: string,
  principal: Principal,
  form: TCarrierDefinitionForm,
): Promise<TCarrierDefinition> {
  if (await repo.carrierNameTaken(db, organizationId, form.name)) throw carrierExists(form.name);
  try {
    return await db.transaction(async (tx) => {
      const created = presentCarrier(await repo.insertCarrier(tx, organizationId, form.name));
      await auditConfiguration(
        tx,
        organizationId,
        principal,
        { type: 'carrier', id: created.id! },
        null,
        created,
      );
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error, repo.CARRIER_NAME_KEY)) throw carrierExists(form.name);
    throw error;
  }
}

async function updateCarrier(
  db: Database,
  organizationId: string,
  principal: Principal,
  rawId: string,
  form: Partial<TCarrierDefinitionForm>,
): Promise<TCarrierDefinition> {
  const id = parseRowId(rawId);
  const existing = id === undefined ? undefined : await repo.findCarrier(db, organizationId, id);
  if (id === undefined || !existing) throw notFound('Carrier definition');
  if (form.name === undefined || form.name === existing.name) return presentCarrier(existing);
  if (await repo.carrierNameTaken(db, organizationId, form.name, id)) {
    throw carrierExists(form.name);
  }
  try {
    return await db.transaction(async (tx) => {
      const row = await repo.updateCarrier(tx, organizationId, id, { name: form.name });
      if (!row) throw notFound('Carrier definition');
      const after = presentCarrier(row);
      await auditConfiguration(
        tx,
        organizationId,
        principal,
        { type: 'carrier', id },
        presentCarrier(existing),
        after,
      );
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error, repo.CARRIER_NAME_KEY)) throw carrierExists(form.name);
    throw error;
  }
}

// ------------------------------------------------------------ products
async function listProducts(db: Database, organizationId: string): Promise<TProductDefinition[]> {
  return (await repo.listProducts(db, organizationId)).map(presentProduct);
}

async function createProduct(
  db: Database,
  organizationId: string,
  principal: Principal,
  form: TProductDefinitionUpdate & { product_name: string },
): Promise<TProductDefinition> {
  const errors = new FieldErrors();
  const values = productValues(form, errors);
  checkProduct(values, errors);
  errors.throwIfAny();
  return db.transaction(async (tx) => {
    const created = presentProduct(
      await repo.insertProduct(tx, organizationId, {
        ...values,
        productName: form.product_name,
      }),
    );
    await auditConfiguration(
      tx,
      organizationId,
      principal,
      { type: 'product', id: created.id! },
      null,
      created,
    );
    return created;
  });
}

async function updateProduct(
  db: Database,
  organizationId: string,
  principal: Principal,
  rawId: string,
  form: TProductDefinitionUpdate,
): Promise<TProductDefinition> {
  const id = parseRowId(rawId);
  if (id === undefined) throw notFound('Product definition');
  // Lock the row: the range checks read the stored values the edit keeps.
  const row = await db.transaction(async (tx) => {
    const existing = await repo.findProduct(tx, organizationId, id, true);
    if (!existing) throw notFound('Product definition');
    const errors = new FieldErrors();
    const values = productValues(form, errors);
    checkProduct({ ...existing, ...values }, errors);
    errors.throwIfAny();
    const updated = await repo.updateProduct(tx, organizationId, id, values);
    if (updated) {
      await auditConfiguration(
        tx,
        organizationId,
        principal,
        { type: 'product', id },
        presentProduct(existing),
        presentProduct(updated),
      );
    }
    return updated;
  });
  if (!row) throw notFound('Product definition');
  return presentProduct(row);
}

// ------------------------------------------------------------ travel locations
async function listLocations(
  db: Database,
  organizationId: string,
): Promise<TNameAndAddressLocation[]> {
  return (await repo.listLocations(db, organizationId)).map(presentLocation);
}

async function createLocation(
  db: Database,
  organizationId: string,
  principal: Principal,
  form: TTravelLocationUpdate & {
    name: string;
    address: string;
    latitude: number;
    longitude: number;
  },
): Promise<TNameAndAddressLocation> {
  const errors = new FieldErrors();
  const values = locationValues(form, errors);
  errors.throwIfAny();
  return db.transaction(async (tx) => {
    const created = presentLocation(
      await repo.insertLocation(tx, organizationId, {
        ...values,
        name: form.name,
        address: form.address,
        latitude: form.latitude,
        longitude: form.longitude,
      }),
    );
    await auditConfiguration(
      tx,
      organizationId,
      principal,
      { type: 'location', id: created.id! },
      null,
      created,
    );
    return created;
  });
}

async function updateLocation(
  db: Database,
  jobs: AlarmEventSender | null,
  organizationId: string,
  principal: Principal,
  rawId: string,
  form: TTravelLocationUpdate,
  change: ReasonedChange,
): Promise<TNameAndAddressLocation> {
  const id = parseRowId(rawId);
  const existing = id === undefined ? undefined : await repo.findLocation(db, organizationId, id);
  if (id === undefined || !existing) throw notFound('Travel location');
  const errors = new FieldErrors();
  const values = locationValues(form, errors);
  errors.throwIfAny();
  const row = await db.transaction(async (tx) => {
    const updated = await repo.updateLocation(tx, organizationId, id, values);
    if (updated) {
      await auditConfiguration(
        tx,
        organizationId,
        principal,
        { type: 'location', id },
        presentLocation(existing),
        presentLocation(updated),
        change.reason,
      );
      // A moved location moves the trips of the active records that use it, now.
      if (updated.latitude !== existing.latitude || updated.longitude !== existing.longitude) {
        await reevaluateTrips(
          tx,
          { principal, organizationId, jobs, ...change },
          { locationId: id },
        );
      }
    }
    return updated;
  });
  if (!row) throw notFound('Travel location');
  return presentLocation(row);
}

// ------------------------------------------------------------ dropdown bundle
async function dropdownInfo(db: Database, organizationId: string): Promise<TDropdownInfo> {
  const [products, origins, destinations, carriers] = await Promise.all([
    repo.listProducts(db, organizationId),
    repo.listLocations(db, organizationId, 'origin'),
    repo.listLocations(db, organizationId, 'destination'),
    repo.listCarriers(db, organizationId),
  ]);
  return {
    product_definitions: products.map(presentProduct),
    origin_locations: origins.map(presentLocation),
    destination_locations: destinations.map(presentLocation),
    carrier_definitions: carriers.map(presentCarrier),
  };
}

export function createConfigurationService({ db, jobs }: ConfigurationDeps) {
  return {
    listCarriers: (organizationId: string) => listCarriers(db, organizationId),
    createCarrier: (organizationId: string, principal: Principal, form: TCarrierDefinitionForm) =>
      createCarrier(db, organizationId, principal, form),
    updateCarrier: (
      organizationId: string,
      principal: Principal,
      rawId: string,
      form: Partial<TCarrierDefinitionForm>,
    ) => updateCarrier(db, organizationId, principal, rawId, form),
    listProducts: (organizationId: string) => listProducts(db, organizationId),
    createProduct: (
      organizationId: string,
      principal: Principal,
      form: TProductDefinitionUpdate & { product_name: string },
    ) => createProduct(db, organizationId, principal, form),
    updateProduct: (
      organizationId: string,
      principal: Principal,
      rawId: string,
      form: TProductDefinitionUpdate,
    ) => updateProduct(db, organizationId, principal, rawId, form),
    listLocations: (organizationId: string) => listLocations(db, organizationId),
    createLocation: (
      organizationId: string,
      principal: Principal,
      form: TTravelLocationUpdate & {
        name: string;
        address: string;
        latitude: number;
        longitude: number;
      },
    ) => createLocation(db, organizationId, principal, form),
    updateLocation: (
      organizationId: string,
      principal: Principal,
      rawId: string,
      form: TTravelLocationUpdate,
      change: ReasonedChange,
    ) => updateLocation(db, jobs, organizationId, principal, rawId, form, change),
    dropdownInfo: (organizationId: string) => dropdownInfo(db, organizationId),
    getOrgSettings: (organizationId: string) => getOrgSettings(db, organizationId),
    updateOrgSettings: (
      organizationId: string,
      principal: Principal,
      geoFence: TGeoFenceSettingsUpdate | undefined,
      change: ReasonedChange,
      calibration?: TCalibrationSettingsUpdate,
      flags?: SettingFlags,
    ) =>
      updateOrgSettings(db, jobs, organizationId, principal, geoFence, change, calibration, flags),
  };
}

function carrierExists(name: string): AppError {
  const reason = `A carrier named '${name}' already exists in this organization`;
  return new AppError('CONFLICT', reason, { name: reason });
}

export type ConfigurationService = ReturnType<typeof createConfigurationService>;
