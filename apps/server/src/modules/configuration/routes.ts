import {
  authOrgSettingsGet,
  authOrgSettingsUpdate,
  productsCarrierDefinitionsCreate,
  productsCarrierDefinitionsList,
  productsCarrierDefinitionsUpdate,
  productsDropdownInfo,
  productsProductDefinitionsCreate,
  productsProductDefinitionsList,
  productsProductDefinitionsUpdate,
  productsTravelLocationsCreate,
  productsTravelLocationsList,
  productsTravelLocationsUpdate,
} from '@coldtrace/contract';
import type { TSignatureMeaning } from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerCall } from '../../http/register-call';
import type { Principal } from '../../kernel/principal';
import { verifyChangeSignature } from '../signatures';
import type { ReasonedChange } from './audit';
import { createConfigurationService, type ConfigurationService } from './service';

/** The reason for change and the verified signature sent with a change that may re-evaluate trips. */
async function reasoned(
  app: FastifyInstance,
  request: FastifyRequest,
  principal: Principal,
  body: {
    reason?: string | undefined;
    password?: string | undefined;
    meaning?: TSignatureMeaning | undefined;
  },
): Promise<ReasonedChange> {
  return {
    requestId: request.id,
    reason: body.reason,
    signature: await verifyChangeSignature(app, request, principal, body, 'WEB'),
  };
}

/** Carrier and product definitions. */
function definitionCalls(app: FastifyInstance, service: ConfigurationService): void {
  registerCall(app, productsCarrierDefinitionsList, async ({ organizationId }) =>
    service.listCarriers(organizationId()),
  );
  registerCall(
    app,
    productsCarrierDefinitionsCreate,
    async ({ body, organizationId, requirePrincipal }) =>
      service.createCarrier(organizationId(), requirePrincipal(), body),
  );
  registerCall(
    app,
    productsCarrierDefinitionsUpdate,
    async ({ body, query, organizationId, requirePrincipal }) =>
      service.updateCarrier(organizationId(), requirePrincipal(), query.carrier_id, body),
  );

  registerCall(app, productsProductDefinitionsList, async ({ organizationId }) =>
    service.listProducts(organizationId()),
  );
  registerCall(
    app,
    productsProductDefinitionsCreate,
    async ({ body, organizationId, requirePrincipal }) =>
      service.createProduct(organizationId(), requirePrincipal(), body),
  );
  registerCall(
    app,
    productsProductDefinitionsUpdate,
    async ({ body, query, organizationId, requirePrincipal }) =>
      service.updateProduct(organizationId(), requirePrincipal(), query.product_id, body),
  );
}

/** Travel locations (a move re-evaluates trips) and the dropdown bundle. */
function locationCalls(app: FastifyInstance, service: ConfigurationService): void {
  registerCall(app, productsTravelLocationsList, async ({ organizationId }) =>
    service.listLocations(organizationId()),
  );
  registerCall(
    app,
    productsTravelLocationsCreate,
    async ({ body, organizationId, requirePrincipal }) =>
      service.createLocation(organizationId(), requirePrincipal(), body),
  );
  registerCall(
    app,
    productsTravelLocationsUpdate,
    async ({ body, query, request, organizationId, requirePrincipal }) => {
      const principal = requirePrincipal();
      const { reason: _r, password: _p, meaning: _m, ...form } = body;
      return service.updateLocation(
        organizationId(),
        principal,
        query.travel_location_id,
        form,
        await reasoned(app, request, principal, body),
      );
    },
  );

  registerCall(app, productsDropdownInfo, async ({ organizationId }) =>
    service.dropdownInfo(organizationId()),
  );
}

/** GET / PATCH /api/auth/org-settings/. */
function settingsCalls(app: FastifyInstance, service: ConfigurationService): void {
  registerCall(app, authOrgSettingsGet, async ({ organizationId }) =>
    service.getOrgSettings(organizationId()),
  );
  registerCall(
    app,
    authOrgSettingsUpdate,
    async ({ body, request, organizationId, requirePrincipal }) => {
      const principal = requirePrincipal();
      return service.updateOrgSettings(
        organizationId(),
        principal,
        body.geo_fence_settings,
        await reasoned(app, request, principal, body),
        body.calibration_settings,
        {
          noDataFactor: body.no_data_factor,
          allowReleaseInTransit: body.allow_release_in_transit,
          secondFactorForSigners: body.second_factor_for_signers,
          secondFactorForAdministrators: body.second_factor_for_administrators,
        },
      );
    },
  );
}

/**
 * Spec section 7, "Products" (carrier and product definitions, travel
 * locations, dropdown info) and GET / PATCH /api/auth/org-settings/ (the
 * geo-fence). Permissions are declared on the contract calls.
 */
export async function configurationRoutes(app: FastifyInstance): Promise<void> {
  const service = createConfigurationService({ db: app.db, jobs: app.jobs });
  definitionCalls(app, service);
  locationCalls(app, service);
  settingsCalls(app, service);
}
