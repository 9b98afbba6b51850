import {
  productsCarrierDefinitionsCreate,
  type TCarrierDefinition,
  type TCarrierDefinitionForm,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys, invalidateAfterSave } from './query-keys';

/** POST /api/products/carrier-definitions/ (409 CONFLICT naming `name` for a duplicate). */
export function createCarrier(body: TCarrierDefinitionForm): Promise<TCarrierDefinition> {
  return callApi(productsCarrierDefinitionsCreate, { body });
}

/** Creates a carrier, then refreshes the carrier list and the dropdown bundle. */
export function useCreateCarrier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCarrier,
    onSuccess: () => invalidateAfterSave(queryClient, configurationKeys.carriers),
  });
}
