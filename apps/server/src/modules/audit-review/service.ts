import {
  AUDIT_REVIEW_DUE_DAYS,
  AUDIT_REVIEW_MAX_ENTRIES,
  type TAuditReview,
  type TAuditReviewClosure,
  type TAuditReviewEntry,
  type TAuditReviewPeriodSummary,
  type TAuditReviewRisk,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { actorOf, printedName, recordAudit } from '../../kernel/audit';
import { AppError, notFoundSaying } from '../../kernel/errors';
import { presentAuditEvent } from '../audit';
import { secondFactorNote, verifySignaturePassword } from '../signatures';
import type { OrganizationRequest } from '../../kernel/context';
import * as repo from './repository';
import { compareRanked, reasonsOf, riskOf } from './risk';

/**
 * The audit-trail review (issue 37 item 6; docs/decisions/audit-review.md):
 * a calendar month (UTC) of the organization's trail, its entries by people
 * ranked by risk; each entry marked reviewed once, with a comment; the month
 * closed with a signature once it has ended and its high-risk entries are
 * all marked. Every mark and the closure are audit entries themselves.
 */

const DAY_MS = 86_400_000;

export interface Period {
  period: string;
  start: Date;
  end: Date;
  due: Date;
}

/** `2026-11` → its first instant, the next month's first (exclusive), and its due date. */
export function periodOf(period: string): Period {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const start = new Date(Date.UTC(year, month - 1, 1));
  const end = new Date(Date.UTC(year, month, 1));
  return { period, start, end, due: new Date(end.getTime() + AUDIT_REVIEW_DUE_DAYS * DAY_MS) };
}

/** The month holding `at`, as `2026-11`. */
export const periodAt = (at: Date) => at.toISOString().slice(0, 7);

function stateOf(p: Period, closed: boolean, now: Date): TAuditReview['state'] {
  if (closed) return 'closed';
  if (now < p.end) return 'open';
  return now < p.due ? 'due' : 'overdue';
}

function presentClosure(row: repo.ClosureRow): TAuditReviewClosure {
  return {
    signed_by: row.printedName,
    signed_at: row.signedAt.toISOString(),
    meaning: 'REVIEWED',
    comment: row.comment,
    second_factor: row.secondFactor,
    entries: row.entries,
    reviewed: row.reviewed,
  };
}

/** Every entry of the month by a person, ranked, with its mark. */
async function rankedEntries(
  db: Database,
  organizationId: string,
  p: Period,
): Promise<TAuditReviewEntry[]> {
  const [entries, marks] = await Promise.all([
    repo.periodEntries(db, organizationId, p.start, p.end),
    repo.marksOf(db, organizationId, p.period),
  ]);
  const markOf = new Map(marks.map((m) => [m.auditEventId, m]));
  return entries
    .map(({ row, firstReleaseEventId, recordEndedAt, actorTimeZone }) => {
      const reasons = reasonsOf({
        id: row.id,
        action: row.action,
        entityType: row.entityType,
        field: row.field,
        occurredAt: row.occurredAt,
        actorUserId: row.actorUserId,
        firstReleaseEventId,
        recordEndedAt,
        aboutRecord: row.recordId !== null,
        actorTimeZone,
      });
      const mark = markOf.get(row.id);
      const risk = riskOf(reasons);
      return {
        id: row.id,
        occurredAt: row.occurredAt,
        risk,
        entry: {
          event: presentAuditEvent(row),
          risk,
          reasons,
          review: mark
            ? {
                reviewed_by: mark.reviewedByName,
                reviewed_at: mark.reviewedAt.toISOString(),
                comment: mark.comment,
              }
            : null,
        },
      };
    })
    .sort(compareRanked)
    .map((e) => e.entry);
}

async function review(
  db: Database,
  now: () => Date,
  organizationId: string,
  period: string,
  risk?: TAuditReviewRisk,
): Promise<TAuditReview> {
  const p = periodOf(period);
  const [entries, closure, system] = await Promise.all([
    rankedEntries(db, organizationId, p),
    repo.closureOf(db, organizationId, period),
    repo.systemEntryCount(db, organizationId, p.start, p.end),
  ]);
  const count = (r: TAuditReviewRisk) => entries.filter((e) => e.risk === r).length;
  const listed = risk === undefined ? entries : entries.filter((e) => e.risk === risk);
  return {
    period,
    start: p.start.toISOString(),
    end: p.end.toISOString(),
    due: p.due.toISOString(),
    state: stateOf(p, closure !== null, now()),
    counts: {
      high: count('high'),
      medium: count('medium'),
      low: count('low'),
      reviewed: entries.filter((e) => e.review !== null).length,
      unreviewed_high: entries.filter((e) => e.risk === 'high' && e.review === null).length,
      system,
    },
    entries: listed.slice(0, AUDIT_REVIEW_MAX_ENTRIES),
    closure: closure ? presentClosure(closure) : null,
  };
}

const closedError = (period: string) =>
  new AppError('CONFLICT', `The review of ${period} is closed; it cannot change.`, {
    period: 'review closed',
  });

/**
 * The last 12 months, newest first, from the month the organization was
 * created (none is due before it existed): the current one is open, the
 * others due, overdue or closed.
 */
async function periods(
  db: Database,
  now: () => Date,
  organizationId: string,
): Promise<TAuditReviewPeriodSummary[]> {
  const today = now();
  const created = await repo.organizationCreated(db, organizationId);
  const periods = Array.from({ length: 12 }, (_, k) =>
    periodOf(periodAt(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - k, 1)))),
  ).filter((p, k) => k === 0 || p.end > created);
  const closures = await repo.closuresOf(
    db,
    organizationId,
    periods.map((p) => p.period),
  );
  const closed = new Map(closures.map((c) => [c.period, c]));
  return periods.map((p) => {
    const c = closed.get(p.period);
    return {
      period: p.period,
      state: stateOf(p, c !== undefined, today),
      due: p.due.toISOString(),
      closure: c ? presentClosure(c) : null,
    };
  });
}

async function mark(
  db: Database,
  ctx: OrganizationRequest,
  body: { period: string; event_ids: string[]; comment: string },
): Promise<TAuditReviewEntry[]> {
  const { organizationId } = ctx;
  const p = periodOf(body.period);
  if (await repo.closureOf(db, organizationId, body.period)) throw closedError(body.period);
  const ids = [...new Set(body.event_ids.map(Number))];
  const found = await repo.entriesInPeriod(db, organizationId, ids, p.start, p.end);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw notFoundSaying(
      `Audit entries ${missing.join(', ')} are not entries of ${body.period}`,
      'event_ids',
    );
  }
  const user = ctx.principal.user;
  await db.transaction(async (tx) => {
    const marked = await repo.insertMarks(
      tx,
      ids.map((auditEventId) => ({
        organizationId,
        auditEventId,
        period: body.period,
        reviewedByUserId: user.id,
        reviewedByName: printedName(user),
        comment: body.comment,
      })),
    );
    await recordAudit(
      tx,
      { organizationId, actor: actorOf(ctx.principal, 'WEB'), requestId: ctx.requestId },
      marked.map((m) => ({
        action: 'audit_review.mark',
        entityType: 'audit_event',
        entityId: m.auditEventId,
        field: 'reviewed',
        newValue: body.period,
        reason: body.comment,
      })),
    );
  });
  const wanted = new Set(ids.map(String));
  return (await rankedEntries(db, organizationId, p)).filter((e) => wanted.has(e.event.id));
}

async function close(
  app: FastifyInstance,
  db: Database,
  now: () => Date,
  ctx: OrganizationRequest,
  body: {
    period: string;
    comment: string;
    password: string;
    client_type?: string | undefined;
    second_factor_code?: string | undefined;
  },
): Promise<TAuditReview> {
  const { organizationId } = ctx;
  const p = periodOf(body.period);
  if (now() < p.end) {
    throw new AppError('CONFLICT', `${body.period} has not ended yet; review it once it has.`, {
      period: 'not ended',
    });
  }
  if (await repo.closureOf(db, organizationId, body.period)) throw closedError(body.period);
  const current = await review(db, now, organizationId, body.period);
  if (current.counts.unreviewed_high > 0) {
    throw new AppError(
      'CONFLICT',
      `${current.counts.unreviewed_high} high-risk entries of ${body.period} are not reviewed yet.`,
      { period: 'high-risk entries not reviewed' },
    );
  }
  const factor = await verifySignaturePassword(
    app,
    ctx.principal,
    body.password,
    ctx.clientIp,
    ctx.deviceCookie,
    { code: body.second_factor_code, requestId: ctx.requestId },
  );
  const user = ctx.principal.user;
  const clientType = body.client_type ?? 'WEB';
  const listed = current.counts.high + current.counts.medium + current.counts.low;
  await db.transaction(async (tx) => {
    const closure = await repo.insertClosure(tx, {
      organizationId,
      period: body.period,
      userId: user.id,
      printedName: printedName(user),
      comment: body.comment,
      clientType,
      secondFactor: factor,
      entries: listed,
      reviewed: current.counts.reviewed,
    });
    // Two closing at once: one wins, the other is told it is closed.
    if (!closure) throw closedError(body.period);
    await recordAudit(
      tx,
      { organizationId, actor: actorOf(ctx.principal, clientType), requestId: ctx.requestId },
      [
        {
          action: 'audit_review.close',
          entityType: 'audit_review',
          entityId: body.period,
          field: 'closed',
          newValue: { entries: listed, reviewed: current.counts.reviewed },
          reason: `Reviewed: ${body.comment}${secondFactorNote(factor)}`,
        },
      ],
    );
  });
  return review(db, now, organizationId, body.period);
}

export function createAuditReviewService(app: FastifyInstance, now: () => Date = () => new Date()) {
  const { db } = app;

  return {
    review: (organizationId: string, period: string, risk?: TAuditReviewRisk) =>
      review(db, now, organizationId, period, risk),
    periods: (organizationId: string) => periods(db, now, organizationId),
    mark: (
      ctx: OrganizationRequest,
      body: { period: string; event_ids: string[]; comment: string },
    ) => mark(db, ctx, body),
    close: (
      ctx: OrganizationRequest,
      body: {
        period: string;
        comment: string;
        password: string;
        client_type?: string | undefined;
        second_factor_code?: string | undefined;
      },
    ) => close(app, db, now, ctx, body),
  };
}
