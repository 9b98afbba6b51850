import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uid, type TestApp } from '../../../test/helpers';

/** Terms of service and privacy policy: publishing, agreeing, and the gate before agreeing. */
describe('terms of service [SPEC-7.1, SPEC-2.2]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a server administrator publishes new terms; everyone must agree again', async () => {
    const { client: admin } = await t.signIn({ serverAdmin: true });
    const { client: member } = await t.signIn();
    expect((await member.get('/api/auth/orgs/')).statusCode).toBe(200);

    const content = `Terms ${uid()}`;
    const res = await admin.post('/api/auth/tos/', { content });
    expect(res.statusCode).toBe(200);
    const terms = res.json();
    expect(terms).toMatchObject({ content, active: true });
    expect((await member.get('/api/auth/tos/')).json()).toEqual(terms);

    const session = (await member.get('/api/auth/session/')).json();
    expect(session.has_agreed_to_tos).toBe(false);
    const refused = await member.get('/api/auth/orgs/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('TERMS_NOT_ACCEPTED');
    // The publisher too.
    expect((await admin.get('/api/auth/orgs/')).json().code).toBe('TERMS_NOT_ACCEPTED');

    const agreed = await member.post('/api/auth/tos-agreement/', { id: terms.id });
    expect(agreed.statusCode).toBe(200);
    expect(agreed.json()).toEqual(terms);
    expect((await member.get('/api/auth/session/')).json().has_agreed_to_tos).toBe(true);
    expect((await member.get('/api/auth/orgs/')).statusCode).toBe(200);
    // Agreeing twice is harmless.
    expect((await member.post('/api/auth/tos-agreement/', { id: terms.id })).statusCode).toBe(200);
  });

  it('agreeing to superseded or unknown terms is refused', async () => {
    const { client: admin } = await t.signIn({ serverAdmin: true });
    const old = (await admin.post('/api/auth/tos/', { content: 'old' })).json();
    await admin.post('/api/auth/tos/', { content: 'new' });
    const { client } = await t.signIn({ agreedToTos: false });
    const stale = await client.post('/api/auth/tos-agreement/', { id: old.id });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().fields).toHaveProperty('id');
    expect(
      (await client.post('/api/auth/tos-agreement/', { id: crypto.randomUUID() })).statusCode,
    ).toBe(404);
    expect((await client.post('/api/auth/tos-agreement/', { id: 'nope' })).statusCode).toBe(404);
    const missing = await client.post('/api/auth/tos-agreement/', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toHaveProperty('id');
  });

  it('the gate lets the session, logout, terms and privacy calls through', async () => {
    const { client: admin } = await t.signIn({ serverAdmin: true });
    await admin.post('/api/auth/tos/', { content: `Gate ${uid()}` });
    const { client } = await t.signIn({ agreedToTos: false });
    for (const url of ['/api/auth/session/', '/api/auth/tos/', '/api/auth/privacy-policy/']) {
      expect((await client.get(url)).statusCode, url).not.toBe(403);
    }
    expect((await client.get('/api/auth/logout/')).statusCode).toBe(204);
  });

  it('only server administrators publish terms and privacy policies', async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    const terms = await client.post('/api/auth/tos/', { content: 'mine' });
    expect(terms.statusCode).toBe(403);
    expect(terms.json().code).toBe('FORBIDDEN');
    expect((await client.post('/api/auth/privacy-policy/', { content: 'mine' })).statusCode).toBe(
      403,
    );
    expect((await t.client().post('/api/auth/tos/', { content: 'x' })).statusCode).toBe(401);
  });

  it('a server administrator publishes a privacy policy; empty content is refused', async () => {
    const { client: admin } = await t.signIn({ serverAdmin: true });
    const content = `Policy ${uid()}`;
    const res = await admin.post('/api/auth/privacy-policy/', { content });
    expect(res.statusCode).toBe(200);
    expect((await t.client().get('/api/auth/privacy-policy/')).json()).toEqual({ content });
    const empty = await admin.post('/api/auth/privacy-policy/', { content: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toHaveProperty('content');
  });
});
