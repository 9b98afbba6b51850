import {
  productsProductDefinitionsCreate,
  type TProductDefinition,
  type TProductDefinitionCreate,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys, invalidateAfterSave } from './query-keys';

/** POST /api/products/product-definitions/ (thresholds in °C). */
export function createProduct(body: TProductDefinitionCreate): Promise<TProductDefinition> {
  return callApi(productsProductDefinitionsCreate, { body });
}

/** Creates a product, then refreshes the product list and the dropdown bundle. */
export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: () => invalidateAfterSave(queryClient, configurationKeys.products),
  });
}
