import { loadCatalogue, type Requirement } from '../../validation/catalogue';

/**
 * The requirements the OQ suite proves: ids of the repository's requirement
 * catalogue (validation/requirements/*.json, docs/validation.md). Titles, sources
 * and risk classes come from the catalogue itself, so the report reads as the
 * validation report does.
 */
export const OQ_REQUIREMENT_IDS = [
  'RULE-SERIES-2',
  'RULE-SERIES-3',
  'RULE-ALARM-4',
  'RULE-ALARM-5',
  'RULE-ALARM-6',
  'RULE-SUMMARY-1',
  'RULE-SUMMARY-2',
  'RULE-TRIP-3',
  'RULE-AUDIT-1',
  'RULE-AUDIT-2',
  'RULE-AUDIT-4',
  'FEAT-E-SIGNATURE',
  'FEAT-EVIDENCE-CHAIN',
  'FEAT-STABILITY-BUDGET',
  'FEAT-REVIEW-QUEUE',
] as const;

export type RequirementId = (typeof OQ_REQUIREMENT_IDS)[number];

/** The catalogue's entries of the suite's ids, in the suite's order; an id it lacks is an error. */
export function oqRequirements(): Requirement[] {
  const catalogue = new Map(loadCatalogue().map((r) => [r.id, r]));
  const missing = OQ_REQUIREMENT_IDS.filter((id) => !catalogue.has(id));
  if (missing.length > 0) {
    throw new Error(
      `the requirement catalogue has no ${missing.join(', ')} (tools/oq/src/requirements.ts)`,
    );
  }
  return OQ_REQUIREMENT_IDS.map((id) => catalogue.get(id)!);
}
