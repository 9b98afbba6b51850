import { TOTAL_COUNT_HEADER, xt1Notifications } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../kernel/errors';
import { pageOf } from '../../kernel/paging';
import { registerCall } from '../../http/register-call';
import { presentAlarm } from '../records';
import { recordsByIds } from '../records';
import * as repo from './repository';

/** The bell: GET notifications/ (docs/decisions/notifications.md); its `alarm.raised` worker is in `workers.ts`. */
export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  registerCall(
    app,
    xt1Notifications,
    async ({ query, reply, requirePrincipal, organizationId: org }) => {
      const principal = requirePrincipal();
      const organizationId = org();
      // Another organization's record answers 404 like every other call, never an empty page.
      if (query.record_id !== undefined) {
        const [record] = await recordsByIds(app.db, organizationId, [Number(query.record_id)]);
        if (!record) throw notFound(`Record '${query.record_id}'`, 'record_id');
      }
      const page = pageOf(query);
      const listed = await repo.listOpen(app.db, organizationId, principal.user.id, {
        ...(query.record_id === undefined ? {} : { recordId: Number(query.record_id) }),
        limit: page.size,
        offset: page.offset,
      });
      void reply.header(TOTAL_COUNT_HEADER, String(listed.total));
      const recordIds = [...new Set(listed.rows.map((r) => r.alarm.recordId))];
      const references = new Map(
        (await recordsByIds(app.db, organizationId, recordIds)).map((r) => [
          r.id,
          r.primaryReference?.trim() ? r.primaryReference.trim() : null,
        ]),
      );
      return listed.rows.map((row) => {
        const primary = references.get(row.alarm.recordId) ?? null;
        return {
          ...presentAlarm(row),
          occurred_at: (row.alarm.startTime ?? row.alarm.created).toISOString(),
          primary_reference: primary,
          reference: primary ?? String(row.alarm.recordId),
        };
      });
    },
  );
}
