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
import { createConfigurationService, type ReasonedChange } from './service';

/**
 * Spec section 7, "Products" (carrier and product definitions, travel
 * locations, dropdown info) and GET / PATCH /api/auth/org-settings/ (the
 * geo-fence). Permissions are declared on the contract calls.
 */
export async function configurationRoutes(app: FastifyInstance): Promise<void> {
  const service = createConfigurationService({ db: app.db, jobs: app.jobs });
  /** The reason for change and the verified signature sent with a change that may re-evaluate trips. */
  const reasoned = async (
    request: FastifyRequest,
    principal: Principal,
    body: {
      reason?: string | undefined;
      password?: string | undefined;
      meaning?: TSignatureMeaning | undefined;
    },
  ): Promise<ReasonedChange> => ({
    requestId: request.id,
    reason: body.reason,
    signature: await verifyChangeSignature(app, request, principal, body, 'WEB'),
  });

  registerCall(app, productsCarrierDefinitionsList, async ({ requirePrincipal }) =>
    service.listCarriers(requirePrincipal()),
  );
  registerCall(app, productsCarrierDefinitionsCreate, async ({ body, requirePrincipal }) =>
    service.createCarrier(requirePrincipal(), body),
  );
  registerCall(app, productsCarrierDefinitionsUpdate, async ({ body, query, requirePrincipal }) =>
    service.updateCarrier(requirePrincipal(), query.carrier_id, body),
  );

  registerCall(app, productsProductDefinitionsList, async ({ requirePrincipal }) =>
    service.listProducts(requirePrincipal()),
  );
  registerCall(app, productsProductDefinitionsCreate, async ({ body, requirePrincipal }) =>
    service.createProduct(requirePrincipal(), body),
  );
  registerCall(app, productsProductDefinitionsUpdate, async ({ body, query, requirePrincipal }) =>
    service.updateProduct(requirePrincipal(), query.product_id, body),
  );

  registerCall(app, productsTravelLocationsList, async ({ requirePrincipal }) =>
    service.listLocations(requirePrincipal()),
  );
  registerCall(app, productsTravelLocationsCreate, async ({ body, requirePrincipal }) =>
    service.createLocation(requirePrincipal(), body),
  );
  registerCall(
    app,
    productsTravelLocationsUpdate,
    async ({ body, query, request, requirePrincipal }) => {
      const principal = requirePrincipal();
      const { reason: _r, password: _p, meaning: _m, ...form } = body;
      return service.updateLocation(
        principal,
        query.travel_location_id,
        form,
        await reasoned(request, principal, body),
      );
    },
  );

  registerCall(app, productsDropdownInfo, async ({ requirePrincipal }) =>
    service.dropdownInfo(requirePrincipal()),
  );

  registerCall(app, authOrgSettingsGet, async ({ requirePrincipal }) =>
    service.getOrgSettings(requirePrincipal()),
  );
  registerCall(app, authOrgSettingsUpdate, async ({ body, request, requirePrincipal }) => {
    const principal = requirePrincipal();
    return service.updateOrgSettings(
      principal,
      body.geo_fence_settings,
      await reasoned(request, principal, body),
      body.calibration_settings,
      {
        noDataFactor: body.no_data_factor,
        allowReleaseInTransit: body.allow_release_in_transit,
        secondFactorForSigners: body.second_factor_for_signers,
        secondFactorForAdministrators: body.second_factor_for_administrators,
      },
    );
  });
}
