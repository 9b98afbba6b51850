import { DISPOSITION_DECISION_LABELS, secondFactorSuffix, type TRecord } from '@coldtrace/contract';
import { meaningText, summaryText, type SummaryLine } from './report-model';

/**
 * The release decision (issue 14 item 2, docs/decisions/disposition.md) as
 * every report tells it: the same label and value lines in the PDF's verdict,
 * the CSV's header and the XLSX's first sheet.
 */

/** What a report says when the record has no signed decision. */
export const NO_DISPOSITION = 'No release decision';

/** `Release decision`, then who signed, when, the signature's meaning, the comment and any transit reason. */
export function dispositionLines(record: TRecord): SummaryLine[] {
  const d = record.disposition;
  if (!d) return [{ label: 'Release decision', value: NO_DISPOSITION }];
  return [
    { label: 'Release decision', value: DISPOSITION_DECISION_LABELS[d.decision] },
    { label: 'Decision signed by', value: d.signed_by },
    { label: 'Decision signed at', value: new Date(d.signed_at) },
    {
      label: 'Decision signature meaning',
      value: meaningText(d.meaning) + secondFactorSuffix(d.second_factor),
    },
    { label: 'Decision comment', value: d.comment },
    // A release signed before the trip ended gives its reason (issue 35).
    ...(d.transit_reason ? [{ label: 'Released in transit', value: d.transit_reason }] : []),
  ];
}

/** The lines as `Label: value` text (the PDF), times local in `timeZone`. */
export function dispositionTexts(record: TRecord, timeZone: string): string[] {
  return dispositionLines(record).map(
    (line) => `${line.label}: ${summaryText(line.value, timeZone)}`,
  );
}
