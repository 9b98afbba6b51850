import {
  MAX_PAGE_SIZE,
  xt1CalibrationList,
  xt1CalibrationPdf,
  xt1CalibrationUpload,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { contentDisposition } from '../reports';
import { createCalibrationService } from './service';

/** Calibration certificates: upload, list a tag's, download one as PDF. */
export async function calibrationRoutes(app: FastifyInstance): Promise<void> {
  const service = createCalibrationService(app.db);

  registerCall(app, xt1CalibrationUpload, async ({ body, request, requirePrincipal }) =>
    service.upload(requirePrincipal(), body, request.id),
  );

  registerCall(app, xt1CalibrationList, async ({ query, reply, requirePrincipal }) => {
    const { total, items } = await service.list(requirePrincipal(), query.device_id, {
      page_number: query.page_number,
      page_size: query.page_size ?? MAX_PAGE_SIZE,
    });
    void reply.header('x-total-count', String(total));
    return items;
  });

  registerCall(app, xt1CalibrationPdf, async ({ query, reply, requirePrincipal }) => {
    const file = await service.pdf(requirePrincipal(), query.calibration_pdf_id, query.device_id);
    void reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', contentDisposition(file.fileName))
      .header('cache-control', 'private, no-store');
    // A Buffer bypasses the reply schema's serializer.
    return reply.send(file.content) as unknown as string;
  });
}
