import {
  xt1UpdateShipmentAction,
  type TDropdownInfo,
  type TRecord,
  type TRecordReference,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  isChangeSignatureError,
  type ChangeSignatureBody,
} from '../../../components/change-signature';
import { useErrorHandler } from '../../../components/error-handler';
import { CLIENT_TYPE, callApi, mobileAppVersion } from '../../../lib/api-client';
import { recordsKeys } from '../../records';
import { optimisticRecord, type ShipmentChanges } from '../shipment-form';
import { recordDetailKeys } from './query-keys';

export interface UpdateShipmentInput {
  recordId: string;
  changes: ShipmentChanges;
  /** Reason for change, and the signature when the change closes alarms. */
  change?: ChangeSignatureBody;
  /** For the shipper and receiver names of the local record. */
  dropdown: TDropdownInfo | undefined;
}

/**
 * POST /api/devices/xt1/update-shipment-action/: the changed fields, sent as
 * the web client (mobile_device_type WEB, mobile_app_version the first 120
 * characters of the user agent, spec section 9).
 */
export function updateShipment({
  recordId,
  changes,
  change,
}: UpdateShipmentInput): Promise<TRecordReference> {
  return callApi(xt1UpdateShipmentAction, {
    body: {
      record_id: recordId,
      timestamp: new Date().toISOString(),
      mobile_device_type: CLIENT_TYPE,
      mobile_app_version: mobileAppVersion(),
      ...changes,
      ...change,
    },
  });
}

/**
 * Spec section 4, "Editing shipment details": updates the local record, sends
 * the update, then reloads the record, its actions and its alarms. A failure
 * goes to the shared error handler (section 8), except a request for a reason
 * or a signature, which the dialog shows; the local record goes back to what
 * the server holds.
 */
export function useUpdateShipment() {
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  return useMutation({
    mutationFn: updateShipment,
    onMutate: async ({ recordId, changes, dropdown }) => {
      const key = recordDetailKeys.record(recordId);
      await queryClient.cancelQueries({ queryKey: key, exact: true });
      const previous = queryClient.getQueryData<TRecord>(key);
      if (previous) queryClient.setQueryData(key, optimisticRecord(previous, changes, dropdown));
      return { previous };
    },
    onError: (error, { recordId }, context) => {
      if (context?.previous) {
        queryClient.setQueryData(recordDetailKeys.record(recordId), context.previous);
      }
      // The dialog asks for the reason or the signature itself.
      if (!isChangeSignatureError(error)) handleError(error, 'Could not save the shipment details');
    },
    onSettled: (_reply, _error, { recordId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.record(recordId), exact: true }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.actions(recordId) }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.audit(recordId) }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.alarms(recordId) }),
        // The record lists show the references and parties too.
        queryClient.invalidateQueries({ queryKey: recordsKeys.all }),
      ]),
  });
}
