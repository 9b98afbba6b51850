import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  allCalls,
  CALL_TAGS,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  type CallDef,
} from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { defaultsInWords } from '../src/http/openapi';

/**
 * Issue 36 item 7: the document integrators generate clients and mocks from
 * (docs/openapi.json, equal to GET /api/schema/ by openapi.test.ts) says what
 * the server does: downloads under their media types, the webhook messages,
 * the API key scheme as served, optional fields with a default optional, every
 * tag defined and every operation described.
 */

interface Operation {
  operationId: string;
  tags: string[];
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
  parameters?: { name: string; in: string; required?: boolean }[];
}
type Json = Record<string, unknown>;
interface Document {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
}

const doc = JSON.parse(
  await readFile(path.join(REPO_ROOT, 'docs/openapi.json'), 'utf8'),
) as Document;
const operationOf = (call: CallDef) => doc.paths[call.path]![call.method.toLowerCase()]!;
const schemaOf = (ref: Json) =>
  doc.components.schemas[(ref.$ref as string).slice('#/components/schemas/'.length)]!;

describe('the OpenAPI document, as integrators read it [FEAT-OPENAPI]', () => {
  it('declares each download under its media type as binary, never as JSON', () => {
    const downloads = (allCalls as readonly CallDef[]).filter((c) => c.download !== undefined);
    expect(downloads.map((c) => c.operationId).sort()).toEqual(
      [
        'auditCsv',
        'kpisLanesCsv',
        'xt1CalibrationPdf',
        'xt1ReportCsvGet',
        'xt1ReportDossierGet',
        'xt1ReportPdfGet',
        'xt1ReportXlsxGet',
      ].sort(),
    );
    for (const call of downloads) {
      const content = operationOf(call).responses['200']!.content!;
      expect(Object.keys(content), call.operationId).toEqual([call.download]);
      expect(content[call.download!]!.schema).toMatchObject({
        type: 'string',
        format: 'binary',
        contentMediaType: call.download,
      });
    }
    expect(
      Object.keys(
        operationOf(downloads.find((c) => c.operationId === 'xt1ReportXlsxGet')!).responses['200']!
          .content!,
      ),
    ).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
  });

  it('declares each upload (a file as the body) under its media type as binary [FEAT-CALIBRATION]', () => {
    const uploads = (allCalls as readonly CallDef[]).filter((c) => c.upload !== undefined);
    expect(uploads.map((c) => c.operationId)).toEqual(['xt1CalibrationFileUpload']);
    for (const call of uploads) {
      const content = operationOf(call).requestBody!.content;
      expect(Object.keys(content), call.operationId).toEqual([call.upload]);
      expect(content[call.upload!]!.schema).toMatchObject({
        type: 'string',
        format: 'binary',
        contentMediaType: call.upload,
      });
    }
  });

  it('has one webhook per event, with its body schema and the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const event of WEBHOOK_EVENTS) {
      const post = doc.webhooks[event]!.post;
      expect(post.parameters!.map((p) => [p.name, p.in, p.required])).toEqual(
        Object.keys(WEBHOOK_HEADERS).map((name) => [name, 'header', true]),
      );
      const body = schemaOf(post.requestBody!.content['application/json']!.schema);
      expect(body.required).toEqual(['id', 'occurred_at', 'organization_id', 'event', 'data']);
      const data = (body.properties as Record<string, Json>).data!;
      const fields = Object.keys(data.properties as Json).sort();
      expect(fields, event).toEqual(
        event.startsWith('alarm.')
          ? ['alarm', 'record']
          : event === 'record.disposition'
            ? ['disposition', 'record']
            : ['record'],
      );
    }
    expect(Object.keys(doc.components.schemas.WebhookAlarm!.properties as Json)).toContain(
      'degree_minutes',
    );
  });

  it('describes the API key schemes as served, and lists them on the calls keys may make', () => {
    const { apiKeyAuth, apiKeyHeader } = doc.components.securitySchemes;
    expect(apiKeyAuth).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(apiKeyAuth!.description).not.toMatch(/not served/);
    expect(apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    for (const call of allCalls as readonly CallDef[]) {
      const schemes = (operationOf(call).security ?? []).flatMap(Object.keys);
      const takesKey = call.apiKey !== undefined || call.auth === 'key';
      expect(schemes.includes('apiKeyAuth'), call.operationId).toBe(takesKey);
      expect(schemes.includes('apiKeyHeader'), call.operationId).toBe(takesKey);
    }
  });

  it('request bodies leave a field with a default optional, and say the default in words', () => {
    const webhook = doc.components.schemas.WebhookCreateInput!;
    expect(webhook.required).toEqual(['url', 'events']);
    expect((webhook.properties as Record<string, Json>).active).toEqual({
      type: 'boolean',
      description: 'Default: `true`.',
    });
    const upload = doc.components.schemas.Xt1UploadInput!;
    expect(upload.required).not.toContain('latitude');
    const latitude = (upload.properties as Record<string, Json>).latitude!;
    expect(latitude).not.toHaveProperty('default');
    expect(latitude.description).toMatch(/Default: `-91`\./);
    // No `default` anywhere in an input schema or a request body.
    const inputs = Object.entries(doc.components.schemas).filter(([n]) => n.endsWith('Input'));
    expect(JSON.stringify(inputs)).not.toMatch(/"default":/);
  });

  it('defaultsInWords walks subschemas only: a property named default stays', () => {
    expect(
      defaultsInWords({
        type: 'object',
        properties: { default: { type: 'string', default: 'x', description: 'A name' } },
        anyOf: [{ type: 'integer', default: 3 }],
      }),
    ).toEqual({
      type: 'object',
      properties: { default: { type: 'string', description: 'A name. Default: `"x"`.' } },
      anyOf: [{ type: 'integer', description: 'Default: `3`.' }],
    });
  });

  it('defines every tag an operation uses, and describes every operation', () => {
    const defined = new Map(doc.tags.map((t) => [t.name, t.description]));
    const operations = [
      ...Object.values(doc.paths).flatMap((ops) => Object.values(ops)),
      ...Object.values(doc.webhooks).map((w) => w.post),
    ];
    for (const operation of operations) {
      for (const tag of operation.tags) {
        expect(defined.get(tag), `${operation.operationId}: tag ${tag}`).toBeTruthy();
      }
      expect(operation.description?.trim(), operation.operationId).toBeTruthy();
    }
    expect(doc.tags.map((t) => t.name)).toEqual([...Object.keys(CALL_TAGS), 'webhooks']);
  });
});
