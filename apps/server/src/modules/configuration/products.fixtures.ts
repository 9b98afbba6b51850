import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';

/** The calls' paths and a valid travel location, for products*.test.ts. */
export const CARRIERS = '/api/products/carrier-definitions/';
export const PRODUCTS = '/api/products/product-definitions/';
export const LOCATIONS = '/api/products/travel-locations/';
export const DROPDOWN = '/api/products/dropdown-info/';

export const berlin = {
  name: 'Berlin depot',
  address: 'Alexanderplatz 1, 10178 Berlin',
  latitude: 52.5219,
  longitude: 13.4132,
};

/** The world of the products tests: a Manager of `org` and a Manager of another organization. */
export interface ProductsWorld {
  t: TestApp;
  /** A Manager (sysConfigCreate, sysConfigEdit, sysAdminLoc) of `org`. */
  manager: TestClient;
  org: TestOrg;
  /** A Manager of another organization. */
  other: TestClient;
  otherOrg: TestOrg;
}

export async function productsWorld(): Promise<ProductsWorld> {
  const t = await createTestApp();
  const org = await t.createOrg();
  const otherOrg = await t.createOrg();
  const { client: manager } = await t.signIn({ role: 'Manager', orgs: [org] });
  const { client: other } = await t.signIn({ role: 'Manager', orgs: [otherOrg] });
  return { t, manager, org, other, otherOrg };
}
