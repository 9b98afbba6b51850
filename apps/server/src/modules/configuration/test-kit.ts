import { ZErrorReply, type TPermissionName } from '@coldtrace/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { roles } from '../../db/schema';
import type { RoleName, TestApp, TestOrg } from '../../../test/helpers';

/** Shared checks of the configuration tests. */

/** The reply is the catalogue's error with this status and code; answers its `fields`. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: string,
): Record<string, string> {
  expect(res.statusCode, res.body).toBe(status);
  const body = ZErrorReply.parse(res.json());
  expect(body.code).toBe(code);
  return body.fields ?? {};
}

/** A 400 VALIDATION_ERROR whose `fields` name `field`. */
export function expectInvalid(res: LightMyRequestResponse, field: string): void {
  const fields = expectError(res, 400, 'VALIDATION_ERROR');
  expect(Object.keys(fields), JSON.stringify(fields)).toContain(field);
}

/** A custom role holding exactly `permissions` in `org` (built-in roles cannot isolate one). */
export async function createRole(
  t: TestApp,
  org: TestOrg,
  permissions: TPermissionName[],
): Promise<RoleName> {
  const name = `Custom ${permissions.join('+')}`;
  await t.db
    .insert(roles)
    .values({ name, permissionNames: permissions, organizationId: org.id })
    .onConflictDoNothing();
  // setMembership looks the role up by name; the helper's type lists only the built-in ones.
  return name as RoleName;
}

/** A valid ISO 8601 timestamp. */
export function expectIso(value: unknown): void {
  expect(typeof value).toBe('string');
  expect(new Date(value as string).toISOString()).toBe(value);
}
