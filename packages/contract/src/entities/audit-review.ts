import { z } from 'zod';
import { ZAuditEvent } from '../calls/notifications';

/**
 * The audit-trail review (issue 37 item 6; docs/decisions/audit-review.md):
 * an administrator reviews the organization's trail month by month, its
 * entries ranked by risk, marks each as reviewed with a comment, and closes
 * the month with a signature. Marks and closures are never changed.
 */

export const AUDIT_REVIEW_RISKS = ['high', 'medium', 'low'] as const;
export const ZAuditReviewRisk = z.enum(AUDIT_REVIEW_RISKS);
export type TAuditReviewRisk = z.infer<typeof ZAuditReviewRisk>;

/** Why an entry is ranked as it is; each reason has its risk. */
export const AUDIT_REVIEW_REASONS = {
  after_release: { risk: 'high', label: 'Changed after the shipment was released' },
  limit_change_active: {
    risk: 'high',
    label: 'Threshold or budget changed while the shipment was active',
  },
  failed_signature: { risk: 'high', label: 'Failed signature or second factor' },
  access_change: { risk: 'medium', label: 'Role, permission or access changed' },
  product_limit_change: { risk: 'medium', label: "A product's limits or budget changed" },
  off_hours: { risk: 'medium', label: 'Administration outside working hours' },
} as const satisfies Record<string, { risk: TAuditReviewRisk; label: string }>;
export type TAuditReviewReason = keyof typeof AUDIT_REVIEW_REASONS;
export const ZAuditReviewReason = z.enum(
  Object.keys(AUDIT_REVIEW_REASONS) as [TAuditReviewReason, ...TAuditReviewReason[]],
);

/** `2026-11`: a calendar month (UTC), the review period. */
export const ZReviewPeriod = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month such as 2026-11');

/** Days after a month ends by which its review is due (then shown as overdue). */
export const AUDIT_REVIEW_DUE_DAYS = 30;
/** Longest review comment. */
export const AUDIT_REVIEW_COMMENT_MAX_LENGTH = 2000;
/** Most entries one page of the review lists (the rest are counted). */
export const AUDIT_REVIEW_MAX_ENTRIES = 500;

export const ZAuditReviewMark = z
  .object({
    reviewed_by: z.string(),
    reviewed_at: z.string(),
    comment: z.string(),
  })
  .meta({ id: 'AuditReviewMark' });

export const ZAuditReviewEntry = z
  .object({
    event: ZAuditEvent,
    risk: ZAuditReviewRisk,
    reasons: z.array(ZAuditReviewReason),
    review: ZAuditReviewMark.nullable().meta({ description: 'null: not reviewed yet' }),
  })
  .meta({ id: 'AuditReviewEntry' });
export type TAuditReviewEntry = z.infer<typeof ZAuditReviewEntry>;

export const ZAuditReviewClosure = z
  .object({
    signed_by: z.string(),
    signed_at: z.string(),
    meaning: z.literal('REVIEWED'),
    comment: z.string(),
    second_factor: z.string().nullable(),
    entries: z.number().int(),
    reviewed: z.number().int(),
  })
  .meta({ id: 'AuditReviewClosure' });
export type TAuditReviewClosure = z.infer<typeof ZAuditReviewClosure>;

export const ZAuditReviewCounts = z.object({
  high: z.number().int(),
  medium: z.number().int(),
  low: z.number().int(),
  reviewed: z.number().int(),
  unreviewed_high: z.number().int(),
  system: z
    .number()
    .int()
    .meta({ description: 'Entries written by the system (uploads, jobs): counted, not listed' }),
});

export const ZAuditReviewPeriodState = z.enum(['open', 'due', 'overdue', 'closed']);

export const ZAuditReview = z
  .object({
    period: ZReviewPeriod,
    start: z.string(),
    end: z.string().meta({ description: 'Exclusive' }),
    due: z.string(),
    state: ZAuditReviewPeriodState.meta({
      description:
        'open: the month has not ended; due: ended, not closed, before its due date; ' +
        'overdue: past it; closed: signed',
    }),
    counts: ZAuditReviewCounts,
    entries: z.array(ZAuditReviewEntry).meta({
      description: `Ranked by risk, then newest first; at most ${AUDIT_REVIEW_MAX_ENTRIES}`,
    }),
    closure: ZAuditReviewClosure.nullable(),
  })
  .meta({ id: 'AuditReview' });
export type TAuditReview = z.infer<typeof ZAuditReview>;

export const ZAuditReviewPeriodSummary = z
  .object({
    period: ZReviewPeriod,
    state: ZAuditReviewPeriodState,
    due: z.string(),
    closure: ZAuditReviewClosure.nullable(),
  })
  .meta({ id: 'AuditReviewPeriod' });
export type TAuditReviewPeriodSummary = z.infer<typeof ZAuditReviewPeriodSummary>;
