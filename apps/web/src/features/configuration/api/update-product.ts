import {
  productsProductDefinitionsUpdate,
  type TProductDefinition,
  type TProductDefinitionUpdate,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys, invalidateAfterSave } from './query-keys';

export interface UpdateProductArgs {
  productId: string;
  body: TProductDefinitionUpdate;
}

/** PATCH /api/products/product-definitions/?product_id= (only the changed fields). */
export function updateProduct({ productId, body }: UpdateProductArgs): Promise<TProductDefinition> {
  return callApi(productsProductDefinitionsUpdate, { query: { product_id: productId }, body });
}

/** Edits a product, then refreshes the product list and the dropdown bundle. */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: () => invalidateAfterSave(queryClient, configurationKeys.products),
  });
}
