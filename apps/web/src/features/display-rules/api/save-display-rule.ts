import {
  dataDisplayRulesCreate,
  dataDisplayRulesUpdate,
  type TDataDisplayRulePatch,
  type TDataDisplayRuleUpload,
  type TDataDisplayRuleView,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { displayRulesKeys } from './query-keys';

/** POST /api/data-display-rules/. */
export function createDisplayRule(body: TDataDisplayRuleUpload): Promise<TDataDisplayRuleView> {
  return callApi(dataDisplayRulesCreate, { body });
}

/** PATCH /api/data-display-rules/ (the body names the rule). */
export function updateDisplayRule(body: TDataDisplayRulePatch): Promise<TDataDisplayRuleView> {
  return callApi(dataDisplayRulesUpdate, { body });
}

/** After a save: the list, and the rule the app applies to the user, are loaded again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: displayRulesKeys.all });
}

export function useCreateDisplayRule() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: createDisplayRule, onSuccess: refresh });
}

export function useUpdateDisplayRule() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: updateDisplayRule, onSuccess: refresh });
}
