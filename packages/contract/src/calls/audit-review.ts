import { z } from 'zod';
import { defineCall } from '../call';
import { SIGNATURE_PASSWORD_MAX_LENGTH } from '../entities/alarms';
import {
  AUDIT_REVIEW_COMMENT_MAX_LENGTH,
  ZAuditReview,
  ZAuditReviewEntry,
  ZAuditReviewPeriodSummary,
  ZAuditReviewRisk,
  ZReviewPeriod,
} from '../entities/audit-review';
import { secondFactorCodeShape } from '../entities/second-factor';
import { ZClientType } from '../enums';
import type { TPermissionName } from '../permissions';

/**
 * The audit-trail review (issue 37 item 6, EU GMP Annex 11 draft of 2025:
 * regular review of the audit trail). Ours, beyond the spec. Decisions:
 * docs/decisions/audit-review.md.
 */

/** Who reviews the trail: the organization's administrators. */
export const AUDIT_REVIEW_PERMISSION = 'sysAdminUser' satisfies TPermissionName;

const comment = z
  .string({ error: 'A comment is required' })
  .trim()
  .min(1, 'A comment is required')
  .max(
    AUDIT_REVIEW_COMMENT_MAX_LENGTH,
    `must be at most ${AUDIT_REVIEW_COMMENT_MAX_LENGTH} characters`,
  );

export const auditReviewPeriods = defineCall({
  operationId: 'auditReviewPeriods',
  method: 'GET',
  path: '/api/audit/reviews/',
  summary: 'The review state of the last 12 months (newest first): open, due, overdue or closed',
  tag: 'audit',
  auth: 'session',
  scope: 'organization',
  permission: AUDIT_REVIEW_PERMISSION,
  reply: z.array(ZAuditReviewPeriodSummary),
});

export const auditReviewGet = defineCall({
  operationId: 'auditReviewGet',
  method: 'GET',
  path: '/api/audit/review/',
  summary: "A month of the organization's audit trail, ranked by risk, with its review",
  description:
    'Entries made by people (and failed signatures), ranked high, medium, low with their ' +
    'reasons (changes after a release, limits changed on an active shipment, failed ' +
    'signatures, access changes, administration outside 07:00-19:00 Monday to Friday in the ' +
    "actor's time zone), then newest first. Entries written by the system are counted only.",
  tag: 'audit',
  auth: 'session',
  scope: 'organization',
  permission: AUDIT_REVIEW_PERMISSION,
  query: z.object({
    period: ZReviewPeriod,
    risk: ZAuditReviewRisk.optional().meta({ description: 'Only entries of this risk' }),
  }),
  reply: ZAuditReview,
});

export const auditReviewMark = defineCall({
  operationId: 'auditReviewMark',
  method: 'POST',
  path: '/api/audit/review/marks/',
  summary: 'Mark audit entries of a month as reviewed, with a comment',
  description:
    'Each entry is marked once (an entry already marked keeps its first mark). 404 naming ' +
    "event_ids for an entry of another month or organization; 409 once the month's review is " +
    'closed. Audited.',
  tag: 'audit',
  auth: 'session',
  scope: 'organization',
  permission: AUDIT_REVIEW_PERMISSION,
  body: z.object({
    period: ZReviewPeriod,
    event_ids: z
      .array(z.string().regex(/^\d{1,15}$/, 'must be audit entry ids'))
      .min(1, 'Choose at least one entry')
      .max(500, 'At most 500 entries at once'),
    comment,
  }),
  reply: z.array(ZAuditReviewEntry),
});

export const auditReviewClose = defineCall({
  operationId: 'auditReviewClose',
  method: 'POST',
  path: '/api/audit/review/close/',
  summary: "Close a month's review with an electronic signature (meaning Reviewed)",
  description:
    'Only once the month has ended and every high-risk entry is marked reviewed (409 ' +
    'otherwise). The signature re-enters the password (and the second factor where the ' +
    'organization requires one). A closed review is never reopened. Audited.',
  tag: 'audit',
  auth: 'session',
  scope: 'organization',
  permission: AUDIT_REVIEW_PERMISSION,
  body: z.object({
    period: ZReviewPeriod,
    comment,
    client_type: ZClientType.optional(),
    password: z
      .string({ error: 'Enter your password to sign' })
      .min(1, 'Enter your password to sign')
      .max(
        SIGNATURE_PASSWORD_MAX_LENGTH,
        `must be at most ${SIGNATURE_PASSWORD_MAX_LENGTH} characters`,
      ),
    ...secondFactorCodeShape,
  }),
  reply: ZAuditReview,
});

export const auditReviewCalls = [
  auditReviewPeriods,
  auditReviewGet,
  auditReviewMark,
  auditReviewClose,
] as const;
