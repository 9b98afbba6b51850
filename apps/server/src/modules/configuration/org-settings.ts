import type {
  TCalibrationSettingsUpdate,
  TGeoFenceSettingsUpdate,
  TOrganizationSettings,
} from '@coldtrace/contract';
import type { Database, Db } from '../../db/client';
import { AppError } from '../../kernel/errors';
import type { Principal } from '../../kernel/principal';
import { reevaluateTrips } from '../ingest';
import type { AlarmEventSender } from '../../jobs/catalogue';
import { auditConfiguration, type ReasonedChange } from './audit';
import { presentOrgSettings } from './presenter';
import * as repo from './repository';
import { FieldErrors, GEO_FENCE_KEYS, radiusOf } from './values';

/**
 * The organization settings (GET / PATCH /api/auth/org-settings/): the geo-fence,
 * the calibration settings and the flags, each change audited; a geo-fence change
 * re-evaluates the active records' trips in the same transaction.
 */

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

/** The organization's settings as the API presents them (the defaults until first changed). */
export async function getOrgSettings(
  db: Database,
  organizationId: string,
): Promise<TOrganizationSettings> {
  return presentOrgSettings(await repo.ensureOrgSettings(db, organizationId));
}

/** A patch that names a settings group must set something in it: 400 otherwise. */
function checkSettingsPatch(
  geoFence: TGeoFenceSettingsUpdate | undefined,
  calibration: TCalibrationSettingsUpdate | undefined,
): void {
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
}

/** Who changes the settings of which organization, and why (the audit entries and re-evaluation name them). */
interface SettingsChange {
  organizationId: string;
  principal: Principal;
  jobs: AlarmEventSender | null;
  change: ReasonedChange;
}

/** The flags the patch changes, each written and audited on its own (its contract name is the entity). */
async function updateSettingFlags(
  tx: Db,
  by: SettingsChange,
  current: repo.OrgSettingsRow,
  flags: SettingFlags,
): Promise<void> {
  const { organizationId, principal, change } = by;
  for (const [key, name] of Object.entries(SETTING_FLAG_NAMES) as [keyof SettingFlags, string][]) {
    const value = flags[key];
    if (value === undefined || value === current[key]) continue;
    await repo.updateOrgSettings(tx, organizationId, { [key]: value });
    await auditConfiguration(
      tx,
      organizationId,
      principal,
      { type: name, id: organizationId },
      { [name]: current[key] },
      { [name]: value },
      change.reason,
    );
  }
}

/** The calibration settings after the patch (the stored value where the patch says nothing). */
function calibrationValues(
  calibration: TCalibrationSettingsUpdate | undefined,
  current: repo.OrgSettingsRow,
): repo.OrgSettingsValues {
  return {
    calibrationValidityMonths:
      calibration?.calibration_validity_months ?? current.calibrationValidityMonths,
    calibrationDueSoonDays:
      calibration?.calibration_due_soon_days ?? current.calibrationDueSoonDays,
    expiredCalibrationStart:
      calibration?.expired_calibration_start ?? current.expiredCalibrationStart,
  };
}

/** One settings group's audit entries: its presented fields before and after. */
async function auditSettingsGroup(
  tx: Db,
  by: SettingsChange,
  group: 'calibration_settings' | 'geo_fence_settings',
  before: repo.OrgSettingsRow,
  after: repo.OrgSettingsRow,
): Promise<void> {
  await auditConfiguration(
    tx,
    by.organizationId,
    by.principal,
    { type: group === 'geo_fence_settings' ? 'geo_fence' : group, id: by.organizationId },
    presentOrgSettings(before)[group] ?? {},
    presentOrgSettings(after)[group] ?? {},
    by.change.reason,
  );
}

/** The geo-fence (with the calibration settings): the active records' trips follow it now. */
async function updateGeoFence(
  tx: Db,
  by: SettingsChange,
  current: repo.OrgSettingsRow,
  patch: TGeoFenceSettingsUpdate,
  calibration: TCalibrationSettingsUpdate | undefined,
): Promise<repo.OrgSettingsRow> {
  const { organizationId, principal, jobs, change } = by;
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
    ...calibrationValues(calibration, current),
  });
  if (calibration) await auditSettingsGroup(tx, by, 'calibration_settings', current, updated);
  await auditSettingsGroup(tx, by, 'geo_fence_settings', current, updated);
  // The active records' trips follow the new geo-fence now, never later as a side effect.
  await reevaluateTrips(tx, { principal, organizationId, jobs, ...change }, {});
  return updated;
}

export async function updateOrgSettings(
  db: Database,
  jobs: AlarmEventSender | null,
  organizationId: string,
  principal: Principal,
  geoFence: TGeoFenceSettingsUpdate | undefined,
  change: ReasonedChange,
  calibration?: TCalibrationSettingsUpdate,
  flags: SettingFlags = {},
): Promise<TOrganizationSettings> {
  checkSettingsPatch(geoFence, calibration);
  const by: SettingsChange = { organizationId, principal, jobs, change };
  const row = await db.transaction(async (tx) => {
    const current = await repo.ensureOrgSettings(tx, organizationId, true);
    await updateSettingFlags(tx, by, current, flags);
    if (geoFence) return updateGeoFence(tx, by, current, geoFence, calibration);
    // The calibration settings alone (issue 14 item 7): the trips are not touched.
    const updated = await repo.updateOrgSettings(
      tx,
      organizationId,
      calibrationValues(calibration, current),
    );
    await auditSettingsGroup(tx, by, 'calibration_settings', current, updated);
    return updated;
  });
  return presentOrgSettings(row);
}
