/**
 * The stability budget module's entry (issue 14 item 3; docs/decisions/stability-budget.md):
 * a product's bands of time allowed beyond a limit, summed across the legs of
 * a shipment; the record reply's `stability_budget` and the `budget` alarms.
 */
export { budgetRaiseReason, evaluateBudgetAlarms, type BudgetAlarms } from './evaluate';
export { stabilityBudgetOf } from './usage';
