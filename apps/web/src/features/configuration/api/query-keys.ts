import type { QueryClient } from '@tanstack/react-query';

/**
 * Query keys of the configuration calls, named after their paths. Every key of
 * the /api/products/ calls starts with `products`, so the dropdown bundle any
 * screen caches under `['products', 'dropdown-info']` is refreshed with them.
 */
export const configurationKeys = {
  products: ['products', 'product-definitions'] as const,
  carriers: ['products', 'carrier-definitions'] as const,
  travelLocations: ['products', 'travel-locations'] as const,
  dropdownInfo: ['products', 'dropdown-info'] as const,
  orgSettings: ['auth', 'org-settings'] as const,
  evidenceKey: ['evidence', 'key'] as const,
};

/**
 * After a create or edit: refetch the list it changed and the dropdown bundle
 * (products, carriers and locations are offered in the shipment forms). The
 * promise settles when the list is fresh, so a dialog closes onto the new row.
 */
export async function invalidateAfterSave(
  queryClient: QueryClient,
  list: readonly string[],
): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: list }),
    queryClient.invalidateQueries({ queryKey: configurationKeys.dropdownInfo }),
  ]);
}
