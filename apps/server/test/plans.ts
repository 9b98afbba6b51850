/** A node of an `EXPLAIN (ANALYZE, FORMAT JSON)` plan, as far as the cost tests read it. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Rows the plan read from `relation`, over all its loops: those it kept and those its filter removed. */
export const rowsRead = (node: PlanNode, relation: string): number =>
  (node['Relation Name'] === relation
    ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
    : 0) + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, relation), 0);

/** The most rows any join of the plan produced, over all its loops. */
export const joinedRows = (node: PlanNode): number =>
  Math.max(
    /Join|Nested Loop/.test(node['Node Type']) ? node['Actual Rows'] * node['Actual Loops'] : 0,
    ...(node.Plans ?? []).map(joinedRows),
  );
