import { BUILT_IN_ROLES } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, permissionsOf, PUBLIC_CALLS, REFUSED, type Victim } from './route-walk-calls';
import type { TestApp } from './helpers';
import {
  buildVictimWorld,
  expectVictimUnchanged,
  walker,
  type VictimWorld,
} from './route-walk-world';

/**
 * The route walk (issue 5 item 7, issue 10 "Done when"), part 1: the public calls,
 * an anonymous visitor and a Viewer of the victim organization. Part 2
 * (route-walk-cross-org.test.ts) walks as other organizations. route-walk-calls.ts
 * says what the walk is and lists the requests naming the victim.
 */

describe('route walk: no call answers 2xx to a caller without the permission or the organization, and no body carries the victim’s data [SPEC-6.1, SPEC-6.2, RULE-ORG-2]', () => {
  let world: VictimWorld;
  let t: TestApp;
  let victim: Victim;
  let before: Record<string, string[]>;
  let values: VictimWorld['values'];
  let walk: ReturnType<typeof walker>['walk'];
  let viaClient: ReturnType<typeof walker>['viaClient'];
  let viewerId: string;

  beforeAll(async () => {
    world = await buildVictimWorld();
    ({ t, victim, before, values } = world);
    ({ walk, viaClient } = walker(world));
  }, 60_000);
  afterAll(async () => {
    await world?.raw.end();
    await world?.t.close();
  });

  it('the public calls are exactly the listed exceptions', () => {
    const publicCalls = CALLS.filter((c) => c.auth === 'public').map((c) => c.operationId);
    expect(publicCalls.sort()).toEqual(Object.keys(PUBLIC_CALLS).sort());
  });

  it('the victim holds the data the walk aims at', () => {
    expect(before.records).toHaveLength(3);
    expect(before.tags).toHaveLength(3);
    expect(before.alarms!.length).toBeGreaterThan(0);
    expect(values.strings.length).toBeGreaterThan(30);
    expect(values.numbers.length).toBeGreaterThan(10);
  });

  it('anonymous: every non-public call answers 401 (403 for a missing CSRF token)', async () => {
    const problems = await walk(viaClient(t.client()), (call, res) =>
      call.auth === 'public' || REFUSED(res.statusCode) ? null : 'anonymous call not refused',
    );
    expect(problems).toEqual([]);
  });

  it('a Viewer of the organization: every call needing a permission a Viewer lacks is refused', async () => {
    const { client, user } = await t.signIn({
      role: 'Viewer',
      orgs: [{ id: victim.orgId, name: '' }],
    });
    viewerId = user.id;
    const held = new Set<string>(BUILT_IN_ROLES.Viewer);
    const problems = await walk(
      viaClient(client),
      (call, res) => {
        const needed = permissionsOf(call);
        const lacks =
          call.serverAdmin === 'only' || (needed.length > 0 && !needed.some((p) => held.has(p)));
        return lacks && !REFUSED(res.statusCode) ? `Viewer lacks ${needed.join('|')}` : null;
      },
      { sameOrganization: true },
    );
    expect(problems).toEqual([]);
  });

  it('after every walk the victim data is unchanged: records, series, tags, alarms, thresholds, users, memberships, keys, settings', async () => {
    await expectVictimUnchanged(world, viewerId);
  });
});
