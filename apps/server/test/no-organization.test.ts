import { ZErrorReply } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ORGANIZATION_MESSAGE } from '../src/kernel/principal';
import { createTestApp, type TestApp } from './helpers';

/**
 * Issue 12: one organization check (`organizationOf` in `src/kernel/principal.ts`)
 * answers every call a caller of no organization reaches: the same status,
 * code and message whichever module serves the call (before, five modules
 * answered three different ways).
 */
describe('a caller who belongs to no organization [RULE-ORG-1, SPEC-6.2]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const expectNoOrganization = (res: { statusCode: number; json(): unknown }, call: string) => {
    expect({ call, status: res.statusCode }).toEqual({ call, status: 403 });
    expect({ call, ...ZErrorReply.parse(res.json()) }).toEqual({
      call,
      code: 'FORBIDDEN',
      message: NO_ORGANIZATION_MESSAGE,
    });
  };

  it('gets one answer from every module that needs an organization', async () => {
    const { client } = await t.signIn({ orgs: [] });
    expectNoOrganization(await client.get('/api/auth/org-settings/'), 'configuration');
    expectNoOrganization(await client.get('/api/data-display-rules/'), 'display rules');
    expectNoOrganization(await client.post('/api/auth/tokens/', {}), 'tokens');
    expectNoOrganization(
      await client.patch('/api/auth/user-org-settings/', {
        alarm_notify_my_scans: true,
        alarm_notify_any_scans: false,
      }),
      'auth settings',
    );
    // A server administrator passes the permission check and reaches the users module's.
    const { client: admin } = await t.signIn({ orgs: [], serverAdmin: true });
    expectNoOrganization(await admin.get('/api/auth/users/'), 'users');
  });
});
