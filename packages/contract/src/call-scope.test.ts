import { describe, expect, it } from 'vitest';
import { allCalls } from './calls';

/**
 * Issue 12: the contract declares where each call works, and the server enforces
 * it (http/register-call.ts). A public call has no scope; every other call
 * declares one, and only a server administrator's call works across organizations.
 */
describe('call scope [SPEC-6.2]', () => {
  it('every call that is not public declares its scope; public calls declare none', () => {
    const wrong = allCalls
      .filter((c) => (c.auth === 'public') !== (c.scope === undefined))
      .map((c) => `${c.operationId} (${c.auth}, scope ${c.scope ?? 'none'})`);
    expect(wrong).toEqual([]);
  });

  it('calls across organizations are server administrators’ only', () => {
    const server = allCalls.filter((c) => c.scope === 'server');
    expect(server.length).toBeGreaterThan(0);
    expect(server.filter((c) => c.serverAdmin !== 'only').map((c) => c.operationId)).toEqual([]);
  });

  it('device and key calls, and calls needing a permission, work in an organization', () => {
    // Permissions are held in an organization; a device token and an API key belong to one.
    const outside = allCalls.filter(
      (c) =>
        c.scope !== 'organization' &&
        (c.auth === 'device' || c.auth === 'key' || c.permission !== undefined),
    );
    expect(outside.map((c) => c.operationId)).toEqual([]);
  });

  it('an API key reaches only organization-scoped calls that say so, and every key call says so', () => {
    const wrong = allCalls
      .filter(
        (c) =>
          (c.apiKey !== undefined && c.scope !== 'organization') ||
          (c.auth === 'key' && c.apiKey === undefined) ||
          (c.apiKey !== undefined && c.serverAdmin !== undefined),
      )
      .map((c) => c.operationId);
    expect(wrong).toEqual([]);
  });

  it('a read-only key changes nothing: a read call is a GET, or a POST that only generates a report or checks the key', () => {
    const reads = allCalls.filter((c) => c.apiKey === 'read' && c.method !== 'GET');
    expect(reads.map((c) => c.operationId).sort()).toEqual(
      [
        'keysAuthenticate',
        'xt1ReportCsvCreate',
        'xt1ReportDossierCreate',
        'xt1ReportPdfCreate',
        'xt1ReportXlsxCreate',
      ].sort(),
    );
  });
});
