import {
  xt1AssignTags,
  type TTagAssignmentResult,
  type TTagAssignmentUpload,
} from '@coldtrace/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /api/devices/xt1/admin/assign-tags/: the reply's failed_ids drive the page's messages. */
export function assignTags(body: TTagAssignmentUpload): Promise<TTagAssignmentResult> {
  return callApi(xt1AssignTags, { body });
}

export function useAssignTags() {
  return useMutation({ mutationFn: assignTags });
}
