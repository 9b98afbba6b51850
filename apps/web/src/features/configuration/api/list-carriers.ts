import { productsCarrierDefinitionsList, type TCarrierDefinition } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys } from './query-keys';

/** GET /api/products/carrier-definitions/: the organization's carriers, ordered by name. */
export function listCarriers(signal?: AbortSignal): Promise<TCarrierDefinition[]> {
  return callApi(productsCarrierDefinitionsList, { signal });
}

export function carriersQueryOptions() {
  return queryOptions({
    queryKey: configurationKeys.carriers,
    queryFn: ({ signal }) => listCarriers(signal),
  });
}

export function useCarriers() {
  return useQuery(carriersQueryOptions());
}
