import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  memberships,
  organizations,
  privacyPolicies,
  roles,
  termsOfService,
  users,
} from '../src/db/schema';
import { DEMO_ORGANIZATIONS, FIRST_ORGANIZATION, seed } from '../src/seed/seed';
import { createTestApp, type TestApp } from './helpers';

const quiet = { info: () => undefined };

describe('seed [FEAT-DEMO-DATA, RULE-ORG-2]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is idempotent: one admin, two demo organizations with four roles each, one terms, one policy', async () => {
    const config = { ...t.config, seedDemo: true, adminPassword: undefined };
    const first = await seed(t.db, config, quiet);
    expect(first.adminCreated).toBe(true);
    expect(first.generatedAdminPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const second = await seed(t.db, config, quiet);
    expect(second).toEqual({ adminCreated: false });

    const admins = await t.db.select().from(users);
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({
      username: 'admin',
      email: t.config.adminEmail,
      isServerAdmin: true,
    });
    expect(admins[0]!.passwordHash).toMatch(/^\$argon2id\$/);

    const orgs = await t.db.select().from(organizations);
    expect(orgs.map((o) => o.name).sort()).toEqual([...DEMO_ORGANIZATIONS].sort());
    for (const org of orgs) {
      const names = (await t.db.select().from(roles).where(eq(roles.organizationId, org.id))).map(
        (r) => r.name,
      );
      expect(names.sort()).toEqual(['Administrator', 'Manager', 'Operator', 'Viewer']);
    }
    expect(await t.db.select().from(memberships)).toHaveLength(2);
    const [terms] = await t.db.select({ n: count() }).from(termsOfService);
    const [policies] = await t.db.select({ n: count() }).from(privacyPolicies);
    expect([terms!.n, policies!.n]).toEqual([1, 1]);

    // The administrator signs in with the generated password, is in both
    // organizations as Administrator and has agreed to the terms.
    const client = t.client();
    const res = await client.login(t.config.adminEmail, first.generatedAdminPassword!);
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user.organizations).toHaveLength(2);
    expect(user.role_memberships.map((m: { role_name: string }) => m.role_name)).toEqual([
      'Administrator',
      'Administrator',
    ]);
    expect(user.has_agreed_to_tos).toBe(true);
    expect(user.is_server_admin).toBe(true);

    const tos = await client.get('/api/auth/tos/');
    expect(tos.json()).toMatchObject({ active: true, version: 1 });
    expect(tos.json().content).toContain('Terms of Use');
    expect((await client.get('/api/auth/privacy-policy/')).json().content).toContain('Privacy');
  });
});

describe('seed without demo data [FEAT-DEMO-DATA, RULE-ORG-2]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a weak ADMIN_PASSWORD and creates nobody', async () => {
    await expect(
      seed(t.db, { ...t.config, seedDemo: false, adminPassword: 'Password2024' }, quiet),
    ).rejects.toThrow(/^ADMIN_PASSWORD is refused: This password is too easy to guess\./);
    expect(await t.db.select().from(organizations)).toEqual([]);
  });

  it('gives the administrator one organization to work in, with ADMIN_PASSWORD', async () => {
    const result = await seed(
      t.db,
      { ...t.config, seedDemo: false, adminPassword: 'chosen-password' },
      quiet,
    );
    expect(result).toEqual({ adminCreated: true });
    const orgs = await t.db.select().from(organizations);
    expect(orgs.map((o) => o.name)).toEqual([FIRST_ORGANIZATION]);
    const res = await t.client().login('ADMIN', 'chosen-password');
    expect(res.statusCode).toBe(200);
    expect(res.json().current_session_permissions).toContain('sysAdminUser');
  });

  it('the terms and privacy calls answer 404 when nothing is published', async () => {
    const empty = await createTestApp();
    try {
      expect((await empty.client().get('/api/auth/tos/')).statusCode).toBe(404);
      expect((await empty.client().get('/api/auth/privacy-policy/')).statusCode).toBe(404);
    } finally {
      await empty.close();
    }
  });
});
