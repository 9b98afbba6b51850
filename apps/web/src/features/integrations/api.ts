import {
  integrationsWebhookDeliveries,
  integrationsWebhookRedeliver,
  integrationsWebhooksCreate,
  integrationsWebhooksDelete,
  integrationsWebhooksList,
  integrationsWebhooksUpdate,
  type TWebhookCreate,
  type TWebhookUpdate,
} from '@coldtrace/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, callApiWithTotal } from '../../lib/api-client';

/** Query keys of the webhook calls, named after their paths. */
export const webhookKeys = {
  list: ['integrations', 'webhooks'] as const,
  deliveries: (webhookId: string, page: number) =>
    ['integrations', 'webhooks', 'deliveries', webhookId, page] as const,
};

export const DELIVERIES_PAGE_SIZE = 20;

/** GET /api/integrations/webhooks/: the organization's webhooks (never their secrets). */
export function useWebhooks(enabled = true) {
  return useQuery({
    queryKey: webhookKeys.list,
    queryFn: ({ signal }) => callApi(integrationsWebhooksList, { signal }),
    enabled,
  });
}

/** POST: the reply holds the secret, shown once. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TWebhookCreate) => callApi(integrationsWebhooksCreate, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list }),
  });
}

/** PATCH ?webhook_id=: with rotate_secret the reply holds the new secret, shown once. */
export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TWebhookUpdate }) =>
      callApi(integrationsWebhooksUpdate, { query: { webhook_id: id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list }),
  });
}

/** DELETE ?webhook_id=: nothing more is sent; the delivery log is kept. */
export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(integrationsWebhooksDelete, { query: { webhook_id: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list }),
  });
}

/** GET deliveries/?webhook_id=: one page, newest first, with the total. */
export function useDeliveries(webhookId: string, page: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(webhookId, page),
    queryFn: async ({ signal }) => {
      const { data, totalCount } = await callApiWithTotal(integrationsWebhookDeliveries, {
        query: { webhook_id: webhookId, page_number: page, page_size: DELIVERIES_PAGE_SIZE },
        signal,
      });
      return { items: data, total: totalCount ?? data.length };
    },
    placeholderData: keepPreviousData,
  });
}

/** POST redeliver/: the same body and delivery id, queued again. */
export function useRedeliver(webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      callApi(integrationsWebhookRedeliver, { body: { delivery_id: deliveryId } }),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: ['integrations', 'webhooks', 'deliveries', webhookId],
      }),
  });
}
