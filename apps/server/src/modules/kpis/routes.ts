import { kpisLanes, kpisLanesCsv } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { contentDisposition } from '../reports';
import { createKpisService } from './service';

/** Lane and carrier KPIs and their CSV (issue 15 item 4, docs/decisions/kpis.md). */
export async function kpisRoutes(app: FastifyInstance): Promise<void> {
  const service = createKpisService(app.db);

  registerCall(app, kpisLanes, async ({ query, organizationId }) =>
    service.report(organizationId(), query),
  );

  registerCall(app, kpisLanesCsv, async ({ query, reply, organizationId }) => {
    const file = await service.csv(organizationId(), query);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', contentDisposition(file.fileName))
      .header('cache-control', 'private, no-store');
    // A Buffer bypasses the reply schema's serializer.
    return reply.send(file.content) as unknown as string;
  });
}
