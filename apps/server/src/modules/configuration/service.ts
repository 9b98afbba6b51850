import {
  CONFIG_DURATION_MAX_SECONDS,
  DEFAULT_NUM_CONSECUTIVE_EXCURSIONS,
  GEO_FENCE_MAX_RADIUS_METRES,
  type TCarrierDefinition,
  type TCarrierDefinitionForm,
  type TDropdownInfo,
  type TGeoFenceSettingsUpdate,
  type TNameAndAddressLocation,
  type TOrganizationSettings,
  type TProductDefinition,
  type TProductDefinitionUpdate,
  type TTravelLocationUpdate,
} from '@coldtrace/contract';
import {
  canonicalTimeZone,
  formatDurationString,
  parseDurationString,
  toMetres,
} from '@coldtrace/domain';
import type { Database, Db } from '../../db/client';
import { AppError, notFound } from '../../http/errors';
import { actorOf, changedFields as auditChanges, recordAudit } from '../../kernel/audit';
import { parseRowId } from '../../kernel/ids';
import { organizationOf, type Principal } from '../../kernel/principal';
import { reevaluateTrips } from '../ingest';
import type { ChangeSignature } from '../notifications';
import type { AlarmEventSender } from '../../jobs/catalogue';
import {
  knownUnit,
  presentCarrier,
  presentLocation,
  presentOrgSettings,
  presentProduct,
} from './presenter';
import * as repo from './repository';

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

/** Field errors of checks Zod cannot express (cross-field, domain parsing); one 400 naming all. */
class FieldErrors {
  private readonly fields: Record<string, string> = {};

  add(field: string, reason: string): void {
    this.fields[field] ??= reason;
  }

  throwIfAny(): void {
    const reasons = Object.values(this.fields);
    if (reasons.length > 0) {
      throw new AppError(
        'VALIDATION_ERROR',
        `Invalid request body: ${reasons.join('; ')}`,
        this.fields,
      );
    }
  }
}

/** Whether `error` (or what it wraps) is PostgreSQL's unique violation of `constraint`. */
function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const e = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (e.code === '23505' && e.constraint === constraint) return true;
    current = e.cause;
  }
  return false;
}

/**
 * A cumulative duration: null for none (null or empty string), else the
 * canonical `[DD ]HH:MM:SS` form of a valid one.
 */
function durationValue(
  field: string,
  text: string | null | undefined,
  errors: FieldErrors,
): string | null {
  if (text == null || text.trim() === '') return null;
  const seconds = parseDurationString(text);
  if (seconds === null) {
    errors.add(field, `Field '${field}' must be a duration '[DD ]HH:MM:SS', e.g. '1 12:00:00'`);
    return null;
  }
  if (seconds > CONFIG_DURATION_MAX_SECONDS) {
    errors.add(field, `Field '${field}' must be at most 3650 days`);
    return null;
  }
  return formatDurationString(seconds);
}

/** Low must not be above high when both are set (the low field is named). */
function checkRange(
  errors: FieldErrors,
  lowField: string,
  low: number | null | undefined,
  highField: string,
  high: number | null | undefined,
): void {
  if (low != null && high != null && low > high) {
    errors.add(lowField, `Field '${lowField}' (${low}) must not be above ${highField} (${high})`);
  }
}

type ProductValues = Partial<repo.ProductValues>;

/** The columns a product form (creation or edit) sets; absent fields are left out. */
function productValues(form: TProductDefinitionUpdate, errors: FieldErrors): ProductValues {
  const values: ProductValues = {};
  if (form.product_name !== undefined) values.productName = form.product_name;
  if (form.high_threshold !== undefined) values.highThreshold = form.high_threshold;
  if (form.low_threshold !== undefined) values.lowThreshold = form.low_threshold;
  if (form.num_consecutive_excursions !== undefined) {
    values.numConsecutiveExcursions =
      form.num_consecutive_excursions ?? DEFAULT_NUM_CONSECUTIVE_EXCURSIONS;
  }
  if (form.cumulative_high_threshold !== undefined) {
    values.cumulativeHighThreshold = form.cumulative_high_threshold;
  }
  if (form.cumulative_low_threshold !== undefined) {
    values.cumulativeLowThreshold = form.cumulative_low_threshold;
  }
  if (form.cumulative_duration_high !== undefined) {
    values.cumulativeDurationHigh = durationValue(
      'cumulative_duration_high',
      form.cumulative_duration_high,
      errors,
    );
  }
  if (form.cumulative_duration_low !== undefined) {
    values.cumulativeDurationLow = durationValue(
      'cumulative_duration_low',
      form.cumulative_duration_low,
      errors,
    );
  }
  return values;
}

function checkProduct(product: ProductValues, errors: FieldErrors): void {
  checkRange(
    errors,
    'low_threshold',
    product.lowThreshold,
    'high_threshold',
    product.highThreshold,
  );
  checkRange(
    errors,
    'cumulative_low_threshold',
    product.cumulativeLowThreshold,
    'cumulative_high_threshold',
    product.cumulativeHighThreshold,
  );
}

type LocationValues = Partial<repo.LocationValues>;

/** The columns a location form sets; the time zone in its canonical spelling. */
function locationValues(form: TTravelLocationUpdate, errors: FieldErrors): LocationValues {
  const values: LocationValues = {};
  if (form.name !== undefined) values.name = form.name;
  if (form.address !== undefined) values.address = form.address;
  if (form.latitude !== undefined) values.latitude = form.latitude;
  if (form.longitude !== undefined) values.longitude = form.longitude;
  if (form.origin !== undefined) values.origin = form.origin;
  if (form.destination !== undefined) values.destination = form.destination;
  if (form.timezone !== undefined) {
    if (form.timezone === null || form.timezone.trim() === '') {
      values.timezone = null;
    } else {
      const zone = canonicalTimeZone(form.timezone.trim());
      if (zone === null) {
        errors.add('timezone', `Field 'timezone': unknown or unsupported time zone`);
      } else {
        values.timezone = zone;
      }
    }
  }
  return values;
}

const GEO_FENCE_KEYS = [
  'arrival_radius_meters',
  'arrival_radius',
  'arrival_radius_units',
  'departure_radius_meters',
  'departure_radius',
  'departure_radius_units',
  'num_points_to_arrive',
  'num_points_to_depart',
] as const;

/**
 * The new radius and unit of one geo-fence side: `*_radius_meters` is metres,
 * `*_radius` a value in the (new or stored) unit, converted to metres.
 */
function radiusOf(
  side: 'arrival' | 'departure',
  patch: TGeoFenceSettingsUpdate,
  current: { metres: number; units: string },
  errors: FieldErrors,
): { metres: number; units: string } {
  const metresField = `${side}_radius_meters` as const;
  const valueField = `${side}_radius` as const;
  const unitsField = `${side}_radius_units` as const;
  const units = patch[unitsField] ?? knownUnit(current.units);
  const metres = patch[metresField];
  const value = patch[valueField];
  const path = (field: string) => `geo_fence_settings.${field}`;
  if (metres !== undefined && value !== undefined) {
    errors.add(
      path(valueField),
      `Give either '${path(metresField)}' (metres) or '${path(valueField)}' (in ${unitsField}), not both`,
    );
    return current;
  }
  if (metres !== undefined) return { metres, units };
  if (value !== undefined) {
    const converted = toMetres(value, units);
    if (converted <= 0) {
      errors.add(path(valueField), `Field '${path(valueField)}' must be more than 0 m`);
      return current;
    }
    if (!Number.isFinite(converted) || converted > GEO_FENCE_MAX_RADIUS_METRES) {
      errors.add(
        path(valueField),
        `Field '${path(valueField)}' must be at most 1,000 km (${value} ${units} is ${converted} m)`,
      );
      return current;
    }
    return { metres: converted, units };
  }
  return { metres: current.metres, units };
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
      patch: TGeoFenceSettingsUpdate,
      change: ReasonedChange,
    ): Promise<TOrganizationSettings> {
      const organizationId = organizationOf(principal);
      if (!GEO_FENCE_KEYS.some((key) => patch[key] !== undefined)) {
        const reason = `Field 'geo_fence_settings' must set at least one of ${GEO_FENCE_KEYS.join(', ')}`;
        throw new AppError('VALIDATION_ERROR', reason, { geo_fence_settings: reason });
      }
      const row = await db.transaction(async (tx) => {
        const current = await repo.ensureOrgSettings(tx, organizationId, true);
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
        });
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
