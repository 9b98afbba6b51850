import {
  type TCarrierDefinition,
  type TCarrierDefinitionForm,
  type TDropdownInfo,
  type TCalibrationSettingsUpdate,
  type TGeoFenceSettingsUpdate,
  type TNameAndAddressLocation,
  type TOrganizationSettings,
  type TProductDefinition,
  type TProductDefinitionUpdate,
  type TTravelLocationUpdate,
} from '@coldtrace/contract';
import type { Database, Db } from '../../db/client';
import { AppError, notFound } from '../../kernel/errors';
import { actorOf, changedFields as auditChanges, recordAudit } from '../../kernel/audit';
import { parseRowId } from '../../kernel/ids';
import { organizationOf, type Principal } from '../../kernel/principal';
import { reevaluateTrips } from '../ingest';
import type { ChangeSignature } from '../signatures';
import type { AlarmEventSender } from '../../jobs/catalogue';
import { presentCarrier, presentLocation, presentOrgSettings, presentProduct } from './presenter';
import * as repo from './repository';
import {
  FieldErrors,
  isUniqueViolation,
  productValues,
  checkProduct,
  locationValues,
  GEO_FENCE_KEYS,
  radiusOf,
} from './values';

/**
 * Configuration of an organization (issue 3, item 1): carrier and product
 * definitions, travel locations, the dropdown bundle and the geo-fence
 * settings. Everything works in the principal's organization; an id of
 * another organization (or one that cannot be an id) answers 404.
 * Decisions: docs/decisions/configuration.md.
 */

export interface ConfigurationDeps {
  db: Database;
  /** Where alarms raised by a re-evaluation are announced; null: nobody is notified. */
  jobs: AlarmEventSender | null;
}

/**
 * A change that may re-evaluate trips (geo-fence, moving a travel location):
 * the request's id, the reason for change and the verified signature.
 */
export interface ReasonedChange {
  requestId: string;
  reason: string | undefined;
  signature: ChangeSignature | null;
}

/**
 * Audit entries of a configuration edit: one per field (as the API names it)
 * whose value changed between the presented rows; a creation is one entry
 * with the new definition.
 */
async function auditConfiguration(
  tx: Db,
  principal: Principal,
  entity: { type: string; id: number | string },
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
  reason?: string,
): Promise<void> {
  const base = {
    action: before === null ? `${entity.type}.create` : `${entity.type}.update`,
    entityType: entity.type,
    entityId: entity.id,
    reason: reason ?? null,
  };
  await recordAudit(
    tx,
    { organizationId: organizationOf(principal), actor: actorOf(principal) },
    before === null
      ? [{ ...base, oldValue: null, newValue: after }]
      : auditChanges(before, after, base),
  );
}

/**
 * Organization settings changed one by one: the no-data alarm's factor (issue 14
 * item 4), release before the trip ends (issue 35, docs/decisions/disposition.md),
 * the second factor for signers and administrators (issue 37 item 7,
 * docs/decisions/second-factor.md). Each with its contract name.
 */
export interface SettingFlags {
  noDataFactor?: number | undefined;
  allowReleaseInTransit?: boolean | undefined;
  secondFactorForSigners?: boolean | undefined;
  secondFactorForAdministrators?: boolean | undefined;
}
const SETTING_FLAG_NAMES: Record<keyof SettingFlags, string> = {
  noDataFactor: 'no_data_factor',
  allowReleaseInTransit: 'allow_release_in_transit',
  secondFactorForSigners: 'second_factor_for_signers',
  secondFactorForAdministrators: 'second_factor_for_administrators',
};

export function createConfigurationService({ db, jobs }: ConfigurationDeps) {
  return {
    // ------------------------------------------------------------ carriers

    async listCarriers(principal: Principal): Promise<TCarrierDefinition[]> {
      return (await repo.listCarriers(db, organizationOf(principal))).map(presentCarrier);
    },

    async createCarrier(
      principal: Principal,
      form: TCarrierDefinitionForm,
    ): Promise<TCarrierDefinition> {
      const organizationId = organizationOf(principal);
      if (await repo.carrierNameTaken(db, organizationId, form.name))
        throw carrierExists(form.name);
      try {
        return await db.transaction(async (tx) => {
          const created = presentCarrier(await repo.insertCarrier(tx, organizationId, form.name));
          await auditConfiguration(
            tx,
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
    },

    async updateCarrier(
      principal: Principal,
      rawId: string,
      form: Partial<TCarrierDefinitionForm>,
    ): Promise<TCarrierDefinition> {
      const organizationId = organizationOf(principal);
      const id = parseRowId(rawId);
      const existing =
        id === undefined ? undefined : await repo.findCarrier(db, organizationId, id);
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
    },

    // ------------------------------------------------------------ products

    async listProducts(principal: Principal): Promise<TProductDefinition[]> {
      return (await repo.listProducts(db, organizationOf(principal))).map(presentProduct);
    },

    async createProduct(
      principal: Principal,
      form: TProductDefinitionUpdate & { product_name: string },
    ): Promise<TProductDefinition> {
      const organizationId = organizationOf(principal);
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
          principal,
          { type: 'product', id: created.id! },
          null,
          created,
        );
        return created;
      });
    },

    async updateProduct(
      principal: Principal,
      rawId: string,
      form: TProductDefinitionUpdate,
    ): Promise<TProductDefinition> {
      const organizationId = organizationOf(principal);
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
    },

    // ------------------------------------------------------------ travel locations

    async listLocations(principal: Principal): Promise<TNameAndAddressLocation[]> {
      return (await repo.listLocations(db, organizationOf(principal))).map(presentLocation);
    },

    async createLocation(
      principal: Principal,
      form: TTravelLocationUpdate & {
        name: string;
        address: string;
        latitude: number;
        longitude: number;
      },
    ): Promise<TNameAndAddressLocation> {
      const organizationId = organizationOf(principal);
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
          principal,
          { type: 'location', id: created.id! },
          null,
          created,
        );
        return created;
      });
    },

    async updateLocation(
      principal: Principal,
      rawId: string,
      form: TTravelLocationUpdate,
      change: ReasonedChange,
    ): Promise<TNameAndAddressLocation> {
      const organizationId = organizationOf(principal);
      const id = parseRowId(rawId);
      const existing =
        id === undefined ? undefined : await repo.findLocation(db, organizationId, id);
      if (id === undefined || !existing) throw notFound('Travel location');
      const errors = new FieldErrors();
      const values = locationValues(form, errors);
      errors.throwIfAny();
      const row = await db.transaction(async (tx) => {
        const updated = await repo.updateLocation(tx, organizationId, id, values);
        if (updated) {
          await auditConfiguration(
            tx,
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
    },

    // ------------------------------------------------------------ dropdown bundle

    async dropdownInfo(principal: Principal): Promise<TDropdownInfo> {
      const organizationId = organizationOf(principal);
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
    },

    // ------------------------------------------------------------ organization settings

    async getOrgSettings(principal: Principal): Promise<TOrganizationSettings> {
      return presentOrgSettings(await repo.ensureOrgSettings(db, organizationOf(principal)));
    },

    async updateOrgSettings(
      principal: Principal,
      geoFence: TGeoFenceSettingsUpdate | undefined,
      change: ReasonedChange,
      calibration?: TCalibrationSettingsUpdate,
      flags: SettingFlags = {},
    ): Promise<TOrganizationSettings> {
      const organizationId = organizationOf(principal);
      if (geoFence && !GEO_FENCE_KEYS.some((key) => geoFence[key] !== undefined)) {
        const reason = `Field 'geo_fence_settings' must set at least one of ${GEO_FENCE_KEYS.join(', ')}`;
        throw new AppError('VALIDATION_ERROR', reason, { geo_fence_settings: reason });
      }
      const calibrationKeys = Object.keys(calibration ?? {}).filter(
        (k) => calibration?.[k as keyof TCalibrationSettingsUpdate] !== undefined,
      );
      if (calibration && calibrationKeys.length === 0) {
        const reason =
          "Field 'calibration_settings' must set at least one of calibration_validity_months, " +
          'calibration_due_soon_days, expired_calibration_start';
        throw new AppError('VALIDATION_ERROR', reason, { calibration_settings: reason });
      }
      const row = await db.transaction(async (tx) => {
        const current = await repo.ensureOrgSettings(tx, organizationId, true);
        for (const [key, name] of Object.entries(SETTING_FLAG_NAMES) as [
          keyof SettingFlags,
          string,
        ][]) {
          const value = flags[key];
          if (value === undefined || value === current[key]) continue;
          // One setting of its own, audited like the others (its contract name is the entity).
          await repo.updateOrgSettings(tx, organizationId, { [key]: value });
          await auditConfiguration(
            tx,
            principal,
            { type: name, id: organizationId },
            { [name]: current[key] },
            { [name]: value },
            change.reason,
          );
        }
        if (!geoFence) {
          // The calibration settings alone (issue 14 item 7): the trips are not touched.
          const updated = await repo.updateOrgSettings(tx, organizationId, {
            calibrationValidityMonths:
              calibration?.calibration_validity_months ?? current.calibrationValidityMonths,
            calibrationDueSoonDays:
              calibration?.calibration_due_soon_days ?? current.calibrationDueSoonDays,
            expiredCalibrationStart:
              calibration?.expired_calibration_start ?? current.expiredCalibrationStart,
          });
          await auditConfiguration(
            tx,
            principal,
            { type: 'calibration_settings', id: organizationId },
            presentOrgSettings(current).calibration_settings ?? {},
            presentOrgSettings(updated).calibration_settings ?? {},
            change.reason,
          );
          return updated;
        }
        const patch = geoFence;
        const errors = new FieldErrors();
        const arrival = radiusOf(
          'arrival',
          patch,
          { metres: current.arrivalRadiusMeters, units: current.arrivalRadiusUnits },
          errors,
        );
        const departure = radiusOf(
          'departure',
          patch,
          { metres: current.departureRadiusMeters, units: current.departureRadiusUnits },
          errors,
        );
        errors.throwIfAny();
        const updated = await repo.updateOrgSettings(tx, organizationId, {
          arrivalRadiusMeters: arrival.metres,
          arrivalRadiusUnits: arrival.units,
          departureRadiusMeters: departure.metres,
          departureRadiusUnits: departure.units,
          numPointsToArrive: patch.num_points_to_arrive ?? current.numPointsToArrive,
          numPointsToDepart: patch.num_points_to_depart ?? current.numPointsToDepart,
          calibrationValidityMonths:
            calibration?.calibration_validity_months ?? current.calibrationValidityMonths,
          calibrationDueSoonDays:
            calibration?.calibration_due_soon_days ?? current.calibrationDueSoonDays,
          expiredCalibrationStart:
            calibration?.expired_calibration_start ?? current.expiredCalibrationStart,
        });
        if (calibration) {
          await auditConfiguration(
            tx,
            principal,
            { type: 'calibration_settings', id: organizationId },
            presentOrgSettings(current).calibration_settings ?? {},
            presentOrgSettings(updated).calibration_settings ?? {},
            change.reason,
          );
        }
        await auditConfiguration(
          tx,
          principal,
          { type: 'geo_fence', id: organizationId },
          presentOrgSettings(current).geo_fence_settings ?? {},
          presentOrgSettings(updated).geo_fence_settings ?? {},
          change.reason,
        );
        // The active records' trips follow the new geo-fence now, never later as a side effect.
        await reevaluateTrips(tx, { principal, organizationId, jobs, ...change }, {});
        return updated;
      });
      return presentOrgSettings(row);
    },
  };
}

function carrierExists(name: string): AppError {
  const reason = `A carrier named '${name}' already exists in this organization`;
  return new AppError('CONFLICT', reason, { name: reason });
}

export type ConfigurationService = ReturnType<typeof createConfigurationService>;
