import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * A Coldtrace client generated from the OpenAPI document (`/api/schema/`,
 * committed as docs/openapi.json):
 *
 *   npx openapi-typescript docs/openapi.json -o examples/integration/schema.d.ts
 *
 * `schema.d.ts` holds only types; openapi-fetch checks every path, parameter and
 * reply against them at compile time. The key is sent as `Authorization: Api-Key <key>`;
 * `fetchWith` replaces the global fetch (a proxy, a logger, a test's recorder).
 */
export function coldtraceClient(baseUrl: string, apiKey: string, fetchWith?: typeof fetch) {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Api-Key ${apiKey}` },
    ...(fetchWith ? { fetch: fetchWith } : {}),
  });
}

export type ColdtraceClient = ReturnType<typeof coldtraceClient>;
