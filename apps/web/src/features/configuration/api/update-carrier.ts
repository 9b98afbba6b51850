import {
  productsCarrierDefinitionsUpdate,
  type TCarrierDefinition,
  type TCarrierDefinitionForm,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys, invalidateAfterSave } from './query-keys';

export interface UpdateCarrierArgs {
  carrierId: string;
  body: Partial<TCarrierDefinitionForm>;
}

/** PATCH /api/products/carrier-definitions/?carrier_id= (rename). */
export function updateCarrier({ carrierId, body }: UpdateCarrierArgs): Promise<TCarrierDefinition> {
  return callApi(productsCarrierDefinitionsUpdate, { query: { carrier_id: carrierId }, body });
}

/** Renames a carrier, then refreshes the carrier list and the dropdown bundle. */
export function useUpdateCarrier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCarrier,
    onSuccess: () => invalidateAfterSave(queryClient, configurationKeys.carriers),
  });
}
