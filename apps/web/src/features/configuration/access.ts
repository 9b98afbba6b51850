import {
  authOrgSettingsUpdate,
  productsCarrierDefinitionsCreate,
  productsCarrierDefinitionsUpdate,
  productsProductDefinitionsCreate,
  productsProductDefinitionsUpdate,
  productsTravelLocationsCreate,
  productsTravelLocationsUpdate,
  type CallDef,
  type TPermissionName,
  type TUser,
} from '@coldtrace/contract';
import { hasPermission } from '../../lib/session';

/** Spec sections 2 and 6: the Configuration page needs sysAdminLoc or sysAdminUser. */
export const CONFIGURATION_PERMISSIONS = [
  'sysAdminLoc',
  'sysAdminUser',
] as const satisfies readonly TPermissionName[];

/** What the signed-in user may do on the page; each action reads its call's permission. */
export interface ConfigurationAccess {
  view: boolean;
  createProducts: boolean;
  editProducts: boolean;
  createCarriers: boolean;
  editCarriers: boolean;
  createTravelLocations: boolean;
  editTravelLocations: boolean;
  editGeoFence: boolean;
}

function may(user: TUser | null | undefined, call: CallDef): boolean {
  return call.permission === undefined ? user != null : hasPermission(user, call.permission);
}

/**
 * The page is shown with sysAdminLoc or sysAdminUser; the buttons follow the
 * permissions of the calls they make (docs/decisions/configuration.md,
 * "Permissions"), so a location administrator manages travel locations and
 * the geo-fence but only reads products and carriers.
 */
export function configurationAccess(user: TUser | null | undefined): ConfigurationAccess {
  return {
    view: hasPermission(user, CONFIGURATION_PERMISSIONS),
    createProducts: may(user, productsProductDefinitionsCreate),
    editProducts: may(user, productsProductDefinitionsUpdate),
    createCarriers: may(user, productsCarrierDefinitionsCreate),
    editCarriers: may(user, productsCarrierDefinitionsUpdate),
    createTravelLocations: may(user, productsTravelLocationsCreate),
    editTravelLocations: may(user, productsTravelLocationsUpdate),
    editGeoFence: may(user, authOrgSettingsUpdate),
  };
}
