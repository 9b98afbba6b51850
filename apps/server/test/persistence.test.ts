import { describe, expect, it } from 'vitest';
import { createTestApp } from './helpers';

describe('restart [FEAT-DURABILITY]', () => {
  it('keeps every row: sessions, settings, organizations', async () => {
    const first = await createTestApp();
    const org = await first.createOrg();
    const { client, user } = await first.signIn({ orgs: [org], role: 'Manager' });
    await client.patch('/api/auth/user-settings/', {
      degrees_unit: 'F',
      timezone: 'America/Chicago',
    });
    const token = client.sessionToken!;
    await first.close();

    const second = await createTestApp({ databaseName: first.databaseName });
    try {
      const again = second.client({ headers: { cookie: `sessionid=${token}` } });
      const res = await again.get('/api/auth/session/');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: user.id,
        organizations: [org],
        settings: { degrees_unit: 'F', timezone: 'America/Chicago' },
      });
      expect((await second.client().login(user.email, user.password)).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});
