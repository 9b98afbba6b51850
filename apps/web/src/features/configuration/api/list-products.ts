import { productsProductDefinitionsList, type TProductDefinition } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys } from './query-keys';

/** GET /api/products/product-definitions/: the organization's products, ordered by name. */
export function listProducts(signal?: AbortSignal): Promise<TProductDefinition[]> {
  return callApi(productsProductDefinitionsList, { signal });
}

export function productsQueryOptions() {
  return queryOptions({
    queryKey: configurationKeys.products,
    queryFn: ({ signal }) => listProducts(signal),
  });
}

export function useProducts() {
  return useQuery(productsQueryOptions());
}
