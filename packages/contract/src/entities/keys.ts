import { z } from 'zod';
import { ZPermissionName } from '../permissions';

/**
 * "API key: name, prefix, permissions, created. private_key appears only in
 * the creation result. prefix, permissions and created are required."
 * (spec section 3, "Session and user"). The listing (GET /api/keys/generate/)
 * never carries the secret.
 */
export const ZApiKey = z
  .object({
    name: z.string().optional(),
    prefix: z.string(),
    permissions: z.array(ZPermissionName),
    created: z.string(),
    /** Ours (issue 15): the key makes only the calls marked for reading. */
    read_only: z.boolean().optional(),
    /** Ours (issue 15): when the key last authenticated a call (to the minute), or null. */
    last_used: z.string().nullable().optional(),
  })
  .meta({ id: 'ApiKey' });
export type TApiKey = z.infer<typeof ZApiKey>;

/**
 * The creation result (POST /api/keys/generate/): the key plus private_key, the
 * full secret, shown once. The spec does not list private_key as required.
 */
export const ZApiKeyCreated = ZApiKey.extend({
  private_key: z.string().optional(),
}).meta({ id: 'ApiKeyCreated' });
export type TApiKeyCreated = z.infer<typeof ZApiKeyCreated>;
