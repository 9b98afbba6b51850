import { ZDataDisplayRuleView } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema-audit';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { ensureBuiltInRoles } from '../orgs';

const RULES = '/api/data-display-rules/';

describe('data display rules [FEAT-DISPLAY-RULES]', () => {
  let t: TestApp;
  let org: TestOrg;
  let admin: TestClient;
  let viewer: TestClient;
  let manager: TestClient;
  let stranger: TestClient;
  let roleIds: Record<string, string>;
  let foreignRoleId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Administrator' });
    org = signedIn.orgs[0]!;
    admin = signedIn.client;
    ({ client: viewer } = await t.signIn({ role: 'Viewer', orgs: [org] }));
    ({ client: manager } = await t.signIn({ role: 'Manager', orgs: [org] }));
    const other = await t.signIn({ role: 'Administrator' });
    stranger = other.client;
    roleIds = Object.fromEntries(
      Object.entries(await ensureBuiltInRoles(t.db, org.id)).map(([name, r]) => [name, r.id]),
    );
    foreignRoleId = (await ensureBuiltInRoles(t.db, other.orgs[0]!.id)).Viewer!.id;
  });
  afterAll(() => t.close());

  it('starts empty: no rule applies', async () => {
    const res = await viewer.get(RULES);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ rules: [], effective: null });
  });

  it('creates an organization-wide rule and a Viewer rule; each user gets the rule of their role, else the organization one', async () => {
    const wide = await admin.post(RULES, { temperature_decimals: 2 });
    expect(wide.statusCode, wide.body).toBe(200);
    expect(ZDataDisplayRuleView.parse(wide.json())).toMatchObject({
      role_id: null,
      role_name: null,
      degrees_unit: null,
      temperature_decimals: 2,
      hidden_fields: [],
    });
    const forViewers = await admin.post(RULES, {
      role_id: roleIds.Viewer,
      degrees_unit: 'F',
      hidden_fields: ['po_number', 'alarm_recipients'],
    });
    expect(forViewers.statusCode, forViewers.body).toBe(200);
    expect(forViewers.json()).toMatchObject({
      role_name: 'Viewer',
      degrees_unit: 'F',
      temperature_decimals: 1,
      hidden_fields: ['po_number', 'alarm_recipients'],
    });

    const seenByViewer = (await viewer.get(RULES)).json();
    expect(seenByViewer.rules).toHaveLength(2);
    expect(seenByViewer.effective.id).toBe(forViewers.json().id);
    const seenByManager = (await manager.get(RULES)).json();
    expect(seenByManager.effective.id).toBe(wide.json().id);

    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.organizationId, org.id), eq(auditEvents.action, 'display_rule.create')),
      );
    expect(audit).toHaveLength(2);
  });

  it('one rule per role: a second answers 409', async () => {
    const res = await admin.post(RULES, { role_id: roleIds.Viewer });
    expect(res.statusCode).toBe(409);
    expect(Object.keys(res.json().fields)).toEqual(['role_id']);
    const wide = await admin.post(RULES, {});
    expect(wide.statusCode).toBe(409);
  });

  it('PATCH changes the named fields and audits each change', async () => {
    const { effective } = (await viewer.get(RULES)).json();
    const res = await admin.patch(RULES, {
      rule_id: effective.id,
      degrees_unit: null,
      temperature_decimals: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      degrees_unit: null,
      temperature_decimals: 0,
      hidden_fields: ['po_number', 'alarm_recipients'],
    });
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.entityId, effective.id), eq(auditEvents.action, 'display_rule.update')),
      );
    expect(audit.map((a) => [a.field, a.oldValue, a.newValue]).sort()).toEqual([
      ['degrees_unit', 'F', null],
      ['temperature_decimals', 1, 0],
    ]);
  });

  it('needs sysAdminOrgInfo to change; bad input names the field', async () => {
    expect((await manager.post(RULES, { temperature_decimals: 1 })).statusCode).toBe(403);
    const decimals = await admin.post(RULES, {
      role_id: roleIds.Operator,
      temperature_decimals: 3,
    });
    expect(decimals.statusCode).toBe(400);
    expect(Object.keys(decimals.json().fields)).toEqual(['temperature_decimals']);
    const field = await admin.post(RULES, { role_id: roleIds.Operator, hidden_fields: ['id'] });
    expect(field.statusCode).toBe(400);
    expect(Object.keys(field.json().fields)).toEqual(['hidden_fields.0']);
    const unknown = await admin.post(RULES, { role_id: roleIds.Operator, colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    const noId = await admin.patch(RULES, { temperature_decimals: 1 });
    expect(noId.statusCode).toBe(400);
    expect(Object.keys(noId.json().fields)).toEqual(['rule_id']);
  });

  it("another organization's roles and rules answer 404", async () => {
    const res = await admin.post(RULES, { role_id: foreignRoleId });
    expect(res.statusCode).toBe(404);
    expect(Object.keys(res.json().fields)).toEqual(['role_id']);
    const { effective } = (await viewer.get(RULES)).json();
    const patch = await stranger.patch(RULES, { rule_id: effective.id, temperature_decimals: 2 });
    expect(patch.statusCode).toBe(404);
    expect((await stranger.get(RULES)).json()).toEqual({ rules: [], effective: null });
  });
});
