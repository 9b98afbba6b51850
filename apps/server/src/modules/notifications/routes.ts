import { TOTAL_COUNT_HEADER, xt1Notifications } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors';
import { registerCall } from '../../http/register-call';
import { presentAlarm } from '../records/presenter';
import { recordsByIds } from '../records/repository';
import * as repo from './repository';

const DEFAULT_PAGE_SIZE = 20;

/** The bell: GET notifications/ (docs/decisions/notifications.md); its `alarm.raised` worker is in `jobs/workers.ts`. */
export async function notificationsRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, xt1Notifications, async ({ query, reply, requirePrincipal }) => {
    const principal = requirePrincipal();
    if (principal.organizationId === null) {
      throw new AppError('FORBIDDEN', 'You are not a member of any organization.');
    }
    // Another organization's record answers 404 like every other call, never an empty page.
    if (query.record_id !== undefined) {
      const [record] = await recordsByIds(app.db, principal.organizationId, [
        Number(query.record_id),
      ]);
      if (!record) {
        const message = `Record '${query.record_id}' not found`;
        throw new AppError('NOT_FOUND', message, { record_id: message });
      }
    }
    const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
    const listed = await repo.listOpen(app.db, principal.organizationId, principal.user.id, {
      ...(query.record_id === undefined ? {} : { recordId: Number(query.record_id) }),
      limit: pageSize,
      offset: ((query.page_number ?? 1) - 1) * pageSize,
    });
    void reply.header(TOTAL_COUNT_HEADER, String(listed.total));
    return listed.rows.map(presentAlarm);
  });
}
