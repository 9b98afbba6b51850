/**
 * Data display rules (docs/decisions/data-display-rules.md): the query the
 * session keeps the applied rule from, and the calls of the Display rules tab
 * of the Configuration page.
 */
export {
  displayRulesQueryOptions,
  listDisplayRules,
  useDisplayRules,
} from './api/list-display-rules';
export { displayRulesKeys } from './api/query-keys';
export { useRuleRoles } from './api/list-roles';
export {
  createDisplayRule,
  updateDisplayRule,
  useCreateDisplayRule,
  useUpdateDisplayRule,
} from './api/save-display-rule';
