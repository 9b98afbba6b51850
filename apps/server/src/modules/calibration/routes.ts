import {
  MAX_CALIBRATION_FILE_BYTES,
  MAX_PAGE_SIZE,
  UPLOAD_MEDIA_TYPES,
  xt1CalibrationFileUpload,
  xt1CalibrationList,
  xt1CalibrationPdf,
  xt1CalibrationUpload,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { contentDisposition } from '../reports';
import { createCalibrationService } from './service';

/** Calibration certificates: upload, list a tag's, download one as PDF, attach the lab's PDF. */
export async function calibrationRoutes(app: FastifyInstance): Promise<void> {
  const service = createCalibrationService(app.db);

  // The lab's PDF: the raw body, up to MAX_CALIBRATION_FILE_BYTES (413 beyond), in a scope
  // of its own so that no other route takes a PDF body or the larger limit.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.bodyLimit = MAX_CALIBRATION_FILE_BYTES;
    });
    scope.addContentTypeParser(
      UPLOAD_MEDIA_TYPES.pdf,
      { parseAs: 'buffer', bodyLimit: MAX_CALIBRATION_FILE_BYTES },
      (_request, body, done) => done(null, body),
    );
    registerCall(
      scope,
      xt1CalibrationFileUpload,
      async ({ body, query, request, organizationId, requirePrincipal }) =>
        service.attachFile(
          organizationId(),
          requirePrincipal(),
          query.calibration_pdf_id,
          query.file_name,
          Buffer.from(body.buffer, body.byteOffset, body.byteLength),
          request.id,
        ),
    );
  });

  registerCall(
    app,
    xt1CalibrationUpload,
    async ({ body, request, organizationId, requirePrincipal }) =>
      service.upload(organizationId(), requirePrincipal(), body, request.id),
  );

  registerCall(app, xt1CalibrationList, async ({ query, reply, organizationId }) => {
    const { total, items } = await service.list(organizationId(), query.device_id, {
      page_number: query.page_number,
      page_size: query.page_size ?? MAX_PAGE_SIZE,
    });
    void reply.header('x-total-count', String(total));
    return items;
  });

  registerCall(
    app,
    xt1CalibrationPdf,
    async ({ query, reply, organizationId, requirePrincipal }) => {
      const file = await service.pdf(
        organizationId(),
        requirePrincipal(),
        query.calibration_pdf_id,
        query.device_id,
      );
      void reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'private, no-store');
      // A Buffer bypasses the reply schema's serializer.
      return reply.send(file.content) as unknown as string;
    },
  );
}
