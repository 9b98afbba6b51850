import { defineCall, DOWNLOAD_MEDIA_TYPES, fileReply } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/helpers';
import { NO_ORGANIZATION_MESSAGE } from '../kernel/principal';
import { registerCall } from './register-call';

/** Test-only calls exercising what the foundation's own calls do not: permissions, other auth kinds, query, 204. */
const needsAdminUser = defineCall({
  operationId: 'testNeedsAdminUser',
  method: 'POST',
  path: '/api/test/needs-admin-user/',
  summary: 'test',
  tag: 'health',
  auth: 'session',
  scope: 'organization',
  permission: ['sysAdminUser', 'sysAdminOrgInfo'],
  body: z.object({ name: z.string().min(1) }),
  reply: z.object({ hello: z.string(), org: z.string().nullable() }),
});

const listWithQuery = defineCall({
  operationId: 'testListWithQuery',
  method: 'GET',
  path: '/api/test/list/',
  summary: 'test',
  tag: 'health',
  auth: 'session',
  scope: 'organization',
  permission: 'sysDataRead',
  query: z.object({ page_size: z.coerce.number().int().min(1) }),
  reply: z.object({ page_size: z.number() }),
});

const deviceOnly = defineCall({
  operationId: 'testDeviceOnly',
  method: 'POST',
  path: '/api/test/device/',
  summary: 'test',
  tag: 'health',
  auth: 'device',
  scope: 'organization',
  reply: null,
});

const keyOnly = defineCall({
  operationId: 'testKeyOnly',
  method: 'GET',
  path: '/api/test/key/',
  summary: 'test',
  tag: 'health',
  auth: 'key',
  scope: 'organization',
  reply: null,
});

const nothing = defineCall({
  operationId: 'testNothing',
  method: 'DELETE',
  path: '/api/test/nothing/',
  summary: 'test',
  tag: 'health',
  auth: 'session',
  scope: 'account',
  reply: null,
});

const inOrganization = defineCall({
  operationId: 'testInOrganization',
  method: 'GET',
  path: '/api/test/in-organization/',
  summary: 'test',
  tag: 'health',
  auth: 'session',
  scope: 'organization',
  reply: z.object({ org: z.string() }),
});

const badReply = defineCall({
  operationId: 'testBadReply',
  method: 'GET',
  path: '/api/test/bad-reply/',
  summary: 'test',
  tag: 'health',
  auth: 'public',
  reply: z.object({ count: z.number() }),
});

const leakyList = defineCall({
  operationId: 'testLeakyList',
  method: 'GET',
  path: '/api/test/leaky-list/',
  summary: 'test',
  tag: 'health',
  auth: 'public',
  reply: z.array(z.object({ id: z.string(), owner: z.object({ name: z.string() }).nullable() })),
});

const download = defineCall({
  operationId: 'testDownload',
  method: 'GET',
  path: '/api/test/download/',
  summary: 'test',
  tag: 'health',
  auth: 'public',
  reply: fileReply(DOWNLOAD_MEDIA_TYPES.pdf, 'A PDF'),
  download: DOWNLOAD_MEDIA_TYPES.pdf,
});

/** A file that JSON would mangle: bytes that are not UTF-8. */
const PDF_BYTES = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0xff, 0xfe, 0x00, 0x80]);

describe('registerCall [FEAT-INPUT-SAFETY, SPEC-5.1]', () => {
  let t: TestApp;
  let handled = 0;
  let handledInOrganization = 0;
  beforeAll(async () => {
    t = await createTestApp({
      register: (app) => {
        registerCall(app, needsAdminUser, async ({ body, requirePrincipal }) => {
          handled += 1;
          return { hello: body.name, org: requirePrincipal().organizationId };
        });
        registerCall(app, listWithQuery, async ({ query }) => ({ page_size: query.page_size }));
        registerCall(app, deviceOnly, async () => undefined);
        registerCall(app, keyOnly, async () => undefined);
        registerCall(app, nothing, async () => undefined);
        registerCall(app, inOrganization, async ({ organizationId }) => {
          handledInOrganization += 1;
          return { org: organizationId() };
        });
        registerCall(
          app,
          leakyList,
          async () =>
            [
              { id: '1', owner: { name: 'a', password: 'x' }, secret: 'y' },
              { id: '2', owner: null },
            ] as unknown as { id: string; owner: { name: string } | null }[],
        );
        registerCall(app, download, async () => PDF_BYTES);
        registerCall(
          app,
          badReply,
          async () => ({ count: 'many' }) as unknown as { count: number },
        );
      },
    });
  });
  afterAll(() => t.close());

  it('answers 403 FORBIDDEN without any of the permissions, before the handler runs', async () => {
    const { client } = await t.signIn({ role: 'Viewer' });
    const res = await client.post('/api/test/needs-admin-user/', { name: 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect(res.json().message).toContain('sysAdminUser or sysAdminOrgInfo');
    expect(handled).toBe(0);
  });

  it('runs the handler with one of the permissions, in the session organization', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const res = await client.post('/api/test/needs-admin-user/', { name: 'x' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hello: 'x', org: orgs[0]!.id });
  });

  it('checks authentication before permissions and before the body', async () => {
    const res = await t.client().request({
      method: 'POST',
      url: '/api/test/needs-admin-user/',
      payload: '{broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('validates the query and names the parameter', async () => {
    const { client } = await t.signIn({ role: 'Viewer' });
    expect((await client.get('/api/test/list/?page_size=5')).json()).toEqual({ page_size: 5 });
    const res = await client.get('/api/test/list/?page_size=0');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['page_size']);
    expect(res.json().message).toMatch(/^Invalid request query/);
  });

  it('device and key calls refuse a session (tokens and API keys come later)', async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    expect((await client.post('/api/test/device/')).statusCode).toBe(401);
    expect((await client.get('/api/test/key/')).statusCode).toBe(401);
  });

  it('a call without reply answers 204 with no body', async () => {
    const { client } = await t.signIn();
    const res = await client.request({ method: 'DELETE', url: '/api/test/nothing/' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('a download answers the bytes of the handler as they are, under its media type', async () => {
    const res = await t.client().get('/api/test/download/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.equals(PDF_BYTES)).toBe(true);
    const operation = (t.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths[
      '/api/test/download/'
    ]!.get as {
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    };
    expect(operation.responses['200']!.content).toEqual({
      'application/pdf': {
        schema: {
          type: 'string',
          description: 'A PDF',
          format: 'binary',
          contentMediaType: 'application/pdf',
        },
      },
    });
  });

  it('a reply that breaks its schema is a 500 without internals', async () => {
    const res = await t.client().get('/api/test/bad-reply/');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'INTERNAL', message: 'Internal server error' });
  });

  it('a list reply sends only the fields its schema names (fast-json-stringify, reply-serializer.ts)', async () => {
    const res = await t.client().get('/api/test/leaky-list/');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/password|secret/);
    expect(res.json()).toEqual([
      { id: '1', owner: { name: 'a' } },
      { id: '2', owner: null },
    ]);
    expect(res.headers['x-total-count']).toBe('2');
  });

  it('an organization-scoped call gives its handler the caller’s organization', async () => {
    const { client, orgs } = await t.signIn();
    const res = await client.get('/api/test/in-organization/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ org: orgs[0]!.id });
  });

  it('refuses an organization-scoped call to a caller of no organization before the handler runs; an account call works', async () => {
    const before = handledInOrganization;
    const { client } = await t.signIn({ orgs: [] });
    const res = await client.get('/api/test/in-organization/');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'FORBIDDEN', message: NO_ORGANIZATION_MESSAGE });
    expect(handledInOrganization).toBe(before);
    expect((await client.request({ method: 'DELETE', url: '/api/test/nothing/' })).statusCode).toBe(
      204,
    );
  });

  it('will not register a call that does not say where it works', () => {
    const { scope: _scope, ...unscoped } = inOrganization;
    expect(() => registerCall(t.app, unscoped, async () => ({ org: 'x' }))).toThrow(
      /testInOrganization declares no scope/,
    );
  });
});
