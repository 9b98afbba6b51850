import { BUILT_IN_ROLES } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles as rolesTable } from '../src/db/schema';
import { setMembership } from '../src/modules/orgs/repository';
import { REFUSED } from './route-walk-calls';
import type { TestApp } from './helpers';
import {
  buildVictimWorld,
  expectVictimUnchanged,
  walker,
  type VictimWorld,
} from './route-walk-world';

/**
 * The route walk, part 2 (part 1 is route-walk.test.ts): another organization's
 * Administrator with a session and with a user token, its device token and its API
 * key (both header forms), each on every call naming the victim's data.
 */

describe('route walk (other organizations): no call answers 2xx to a caller without the permission or the organization, and no body carries the victim’s data [RULE-ORG-1, SPEC-6.1, SPEC-6.2]', () => {
  let world: VictimWorld;
  let t: TestApp;
  let walk: ReturnType<typeof walker>['walk'];
  let viaClient: ReturnType<typeof walker>['viaClient'];
  let viaHeaders: ReturnType<typeof walker>['viaHeaders'];
  let crossOrganization: ReturnType<typeof walker>['crossOrganization'];

  beforeAll(async () => {
    world = await buildVictimWorld();
    ({ t } = world);
    ({ walk, viaClient, viaHeaders, crossOrganization } = walker(world));
  }, 60_000);
  afterAll(async () => {
    await world?.raw.end();
    await world?.t.close();
  });

  it("another organization's Administrator (session): refused on every victim id, no victim data", async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const problems = await walk(viaClient(client), crossOrganization('other org session'), {
      ownOrgId: orgs[0]!.id,
    });
    expect(problems).toEqual([]);
  });

  it("another organization's Administrator (user token): refused on every victim id, no victim data", async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const res = await client.post('/api/auth/tokens/', { name: 'attacker' });
    const token = (res.json() as { token: string }).token;
    const problems = await walk(
      viaHeaders({ authorization: `Token ${token}` }),
      crossOrganization('other org token'),
      { ownOrgId: orgs[0]!.id },
    );
    expect(problems).toEqual([]);
  });

  it("another organization's device token (an Operator-like member's): refused on every victim id, writes nothing of the victim's", async () => {
    const org = await t.createOrg();
    // The phone app's member: the Operator's permissions and packet uploads.
    await t.db.insert(rolesTable).values({
      organizationId: org.id,
      name: 'Device',
      permissionNames: [...BUILT_IN_ROLES.Operator!, 'awsPacketUpload'],
    });
    const { client, user } = await t.signIn({ role: 'Viewer', orgs: [org] });
    await setMembership(t.db, user.id, org.id, 'Device');
    const res = await client.post('/api/auth/tokens/', { name: 'phone' });
    expect(res.statusCode, res.body).toBe(200);
    const token = (res.json() as { token: string }).token;
    const problems = await walk(
      viaHeaders({ authorization: `Token ${token}` }),
      crossOrganization('other org device token'),
      { ownOrgId: org.id },
    );
    expect(problems).toEqual([]);
  });

  it("another organization's API key: the calls open to keys never reach the victim; every other call refuses it", async () => {
    // Each header form walks from its own organization: a key's uploads write into its own
    // organization under the victim's serial numbers (WRITES_OWN), which a second walk
    // from the same organization would then read back as its own.
    for (const form of ['authorization', 'x-api-key'] as const) {
      const { client, orgs } = await t.signIn({ role: 'Administrator' });
      const key: string = (await client.post('/api/keys/generate/', { name: 'other' })).json()
        .private_key;
      const headers: Record<string, string> =
        form === 'authorization' ? { authorization: `Api-Key ${key}` } : { 'x-api-key': key };
      const cross = crossOrganization(`other org API key (${form})`);
      const problems = await walk(
        viaHeaders(headers),
        (call, res, req) => {
          if (call.auth === 'public') return null;
          if (call.auth === 'key') {
            if (res.statusCode !== 200) return 'key authentication refused a live key';
            return res.json().organization.id === orgs[0]!.id ? null : 'wrong organization';
          }
          if (call.apiKey !== undefined) return cross(call, res, req);
          return REFUSED(res.statusCode) ? null : 'an API key reached a call not open to keys';
        },
        { ownOrgId: orgs[0]!.id },
      );
      expect(problems).toEqual([]);
    }
  });

  it("another organization's read-only API key: only the read calls answer, never with the victim's data", async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const key: string = (
      await client.post('/api/keys/generate/', { name: 'reader', read_only: true })
    ).json().private_key;
    const cross = crossOrganization('other org read-only API key');
    const problems = await walk(
      viaHeaders({ authorization: `Api-Key ${key}` }),
      (call, res, req) => {
        if (call.auth === 'public') return null;
        if (call.apiKey === 'read') return cross(call, res, req);
        return REFUSED(res.statusCode) ? null : 'a read-only key reached a call that writes';
      },
      { ownOrgId: orgs[0]!.id },
    );
    expect(problems).toEqual([]);
  });

  it('after every walk the victim data is unchanged: records, series, tags, alarms, thresholds, users, memberships, keys, settings', async () => {
    await expectVictimUnchanged(world);
  });
});
