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
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createConfigurationService } from './service';

/**
 * Spec section 7, "Products" (carrier and product definitions, travel
 * locations, dropdown info) and GET / PATCH /api/auth/org-settings/ (the
 * geo-fence). Permissions are declared on the contract calls.
 */
export async function configurationRoutes(app: FastifyInstance): Promise<void> {
  const service = createConfigurationService({ db: app.db });

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
  registerCall(app, productsTravelLocationsUpdate, async ({ body, query, requirePrincipal }) =>
    service.updateLocation(requirePrincipal(), query.travel_location_id, body),
  );

  registerCall(app, productsDropdownInfo, async ({ requirePrincipal }) =>
    service.dropdownInfo(requirePrincipal()),
  );

  registerCall(app, authOrgSettingsGet, async ({ requirePrincipal }) =>
    service.getOrgSettings(requirePrincipal()),
  );
  registerCall(app, authOrgSettingsUpdate, async ({ body, requirePrincipal }) =>
    service.updateOrgSettings(requirePrincipal(), body.geo_fence_settings),
  );
}
