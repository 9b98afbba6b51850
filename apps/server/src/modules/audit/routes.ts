import { auditCsv, auditList, TOTAL_COUNT_HEADER } from '@coldtrace/contract';
import { stringify } from 'csv-stringify/sync';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { auditEvents } from '../../db/schema-audit';
import { notFound } from '../../kernel/errors';
import { pageOf } from '../../kernel/paging';
import { registerCall } from '../../http/register-call';
import { resolveTimeZone } from '@coldtrace/domain';
import { auditDisplayer } from '../reports';
import { contentDisposition, neutralise } from '../reports';
import { displaySettingsOf } from '../reports';
import { recordExists } from '../records';
import { presentAuditEvent } from './presenter';

/**
 * Reading the audit trail (docs/decisions/notifications.md): the
 * organization's entries, filtered by record and entity type, paged (JSON)
 * or whole (CSV, oldest first). Needs sysDataRead, like the records the
 * entries are about.
 */

/** Most entries one CSV export holds. */
const MAX_CSV_ROWS = 100_000;

async function filterOf(
  db: Db,
  organizationId: string,
  q: { record_id?: string | undefined; entity?: string | undefined },
): Promise<SQL> {
  let recordId: number | undefined;
  if (q.record_id !== undefined) {
    recordId = Number(q.record_id);
    if (!(await recordExists(db, organizationId, recordId))) throw notFound('Record', 'record_id');
  }
  return and(
    eq(auditEvents.organizationId, organizationId),
    recordId === undefined ? undefined : eq(auditEvents.recordId, recordId),
    q.entity === undefined ? undefined : eq(auditEvents.entityType, q.entity),
  )!;
}

/** A value as a CSV cell: text as is, anything else as JSON; empty for none. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return neutralise(typeof value === 'string' ? value : JSON.stringify(value));
}

export async function auditRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, auditList, async ({ query, reply, organizationId }) => {
    const where = await filterOf(app.db, organizationId(), query);
    const page = pageOf(query);
    const rows = await app.db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
      .limit(page.size)
      .offset(page.offset);
    const [count] = await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(where);
    void reply.header(TOTAL_COUNT_HEADER, String(count?.n ?? 0));
    return rows.map(presentAuditEvent);
  });

  registerCall(app, auditCsv, async ({ query, reply, requirePrincipal, organizationId }) => {
    const principal = requirePrincipal();
    const where = await filterOf(app.db, organizationId(), query);
    const rows = await app.db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(asc(auditEvents.occurredAt), asc(auditEvents.id))
      .limit(MAX_CSV_ROWS);
    // The stored values as they are (for machines), then the entry as the reader
    // reads it on the record page and in the reports: their zone, unit and words.
    const reader = await displaySettingsOf(app.db, principal.user.id);
    const display = auditDisplayer({
      unit: reader.degreesUnit,
      timeZone: resolveTimeZone(reader.timeZone),
    });
    const header = [
      'When (UTC)',
      'Who',
      'Client',
      'Action',
      'Entity',
      'Entity id',
      'Record id',
      'Field',
      'Old value',
      'New value',
      'Reason',
      `When (${resolveTimeZone(reader.timeZone)})`,
      'What',
      `Change (°${reader.degreesUnit})`,
    ];
    const csv = stringify([
      header,
      ...rows.map((r) => {
        const shown = display(r);
        return [
          r.occurredAt.toISOString(),
          cell(r.actorName),
          cell(r.clientType),
          cell(r.action),
          cell(r.entityType),
          cell(r.entityId),
          r.recordId === null ? '' : String(r.recordId),
          cell(r.field),
          cell(r.oldValue),
          cell(r.newValue),
          cell(r.reason),
          shown.when,
          neutralise(shown.what),
          neutralise(shown.change),
        ];
      }),
    ]);
    const name = query.record_id ? `audit-trail-record-${query.record_id}.csv` : 'audit-trail.csv';
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', contentDisposition(name))
      .header('cache-control', 'private, no-store');
    return reply.send(`\uFEFF${csv}`) as unknown as string;
  });
}
