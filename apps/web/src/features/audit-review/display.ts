import {
  AUDIT_REVIEW_REASONS,
  type TAuditReview,
  type TAuditReviewPeriodSummary,
  type TAuditReviewReason,
  type TAuditReviewRisk,
} from '@coldtrace/contract';
import { formatDate, formatDateTime } from '@coldtrace/domain';
import { errorMessage } from '../../components/error-handler';
import { isApiError } from '../../lib/api-error';

/**
 * What the audit-trail review page says (docs/decisions/audit-review.md): a
 * month's name and state in words, the risks in words and colours that pass
 * WCAG AA (colour is never the only signal: each chip has its word and icon).
 */

export type ReviewState = TAuditReview['state'];

/** `2026-05` as `May 2026` (a calendar month in UTC, the same for every reader). */
export function periodLabel(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, 1)));
}

export const REVIEW_STATE_LABELS: Record<ReviewState, string> = {
  open: 'Open',
  due: 'Due',
  overdue: 'Overdue',
  closed: 'Closed',
};

/**
 * A month's state in one line, times in the reader's zone:
 * `In progress: the month has not ended`, `Review due by 06/30/2026`,
 * `Overdue since 06/30/2026`, `Closed by Ada Admin on 06/02/2026, 10:04:00`.
 */
export function periodStateText(
  p: Pick<TAuditReviewPeriodSummary, 'state' | 'due' | 'closure'>,
  timeZone: string,
): string {
  switch (p.state) {
    case 'open':
      return 'In progress: the month has not ended';
    case 'due':
      return `Review due by ${formatDate(p.due, timeZone)}`;
    case 'overdue':
      return `Overdue since ${formatDate(p.due, timeZone)}`;
    case 'closed':
      return p.closure
        ? `Closed by ${p.closure.signed_by} on ${formatDateTime(p.closure.signed_at, timeZone)}`
        : 'Closed';
  }
}

/** The month shown first: the newest that has ended and is not closed, else the current one. */
export function defaultPeriod(periods: readonly TAuditReviewPeriodSummary[]): string | undefined {
  return (periods.find((p) => p.state === 'due' || p.state === 'overdue') ?? periods[0])?.period;
}

export const RISK_LABELS: Record<TAuditReviewRisk, string> = {
  high: 'High risk',
  medium: 'Medium risk',
  low: 'Low risk',
};

export const RISK_FILTER_LABELS: Record<TAuditReviewRisk, string> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

export interface ChipColours {
  background: string;
  text: string;
  border: string;
}

/** High red, medium amber, low grey: text on background 4.5:1, border on white 3:1. */
export const RISK_CHIP_COLOURS: Readonly<Record<TAuditReviewRisk, ChipColours>> = {
  high: { background: '#c62828', text: '#ffffff', border: '#c62828' },
  medium: { background: '#fff3e0', text: '#7a3e00', border: '#b26a00' },
  low: { background: '#f5f5f5', text: '#424242', border: '#757575' },
};

/** Open grey, due blue, overdue red, closed green. */
export const STATE_CHIP_COLOURS: Readonly<Record<ReviewState, ChipColours>> = {
  open: { background: '#f5f5f5', text: '#424242', border: '#757575' },
  due: { background: '#e3f2fd', text: '#0d47a1', border: '#1565c0' },
  overdue: { background: '#c62828', text: '#ffffff', border: '#c62828' },
  closed: { background: '#2e7d32', text: '#ffffff', border: '#2e7d32' },
};

/** Why an entry is ranked as it is, in words. */
export function reasonLabels(reasons: readonly TAuditReviewReason[]): string[] {
  return reasons.map((r) => AUDIT_REVIEW_REASONS[r].label);
}

/** `3 entries`, `1 entry`. */
export function entriesText(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'entry' : 'entries'}`;
}

/** How the page names the request fields the dialogs have no input for. */
const FIELD_LABELS: Record<string, string> = {
  period: 'Month',
  event_ids: 'Entries',
  client_type: 'Client type',
};

/**
 * The server's refusal in words for the dialog's alert, naming the fields no
 * input of the dialog shows (an input shows its own field's message):
 * `2026-05 has not ended yet; review it once it has. (Month: not ended)`.
 * null when each field the reply names has its input.
 */
export function refusalText(error: unknown, shownFields: readonly string[]): string | null {
  if (!isApiError(error)) return errorMessage(error);
  const fields = Object.entries(error.fields);
  const others = fields.filter(([field]) => !shownFields.includes(field));
  if (fields.length > 0 && others.length === 0) return null;
  if (others.length === 0) return error.message;
  const named = others.map(([field, text]) => `${FIELD_LABELS[field] ?? field}: ${text}`);
  return `${error.message} (${named.join('; ')})`;
}

/** The message of the reply for one field, when it names it. */
export function fieldError(error: unknown, field: string): string | undefined {
  return isApiError(error) ? error.fields[field] : undefined;
}
