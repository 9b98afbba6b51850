import { z } from 'zod';
import { defineCall } from '../call';

/**
 * The health check (not in the spec: an addition for load balancers,
 * orchestrators and monitoring). Anonymous, cheap (one `select 1` with a short
 * time limit), never throttled.
 */
export const ZHealth = z
  .object({
    /** `ok` when the server can reach its database, `unavailable` otherwise. */
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['up', 'down']),
  })
  .meta({ id: 'Health' });
export type THealth = z.infer<typeof ZHealth>;

export const healthGet = defineCall({
  operationId: 'healthGet',
  method: 'GET',
  path: '/api/health/',
  summary:
    "Health of the server and its database: 200 { status: 'ok', database: 'up' }, or 503 { status: 'unavailable', database: 'down' } with Retry-After",
  tag: 'health',
  auth: 'public',
  reply: ZHealth,
  description:
    'Not in the specification: an addition for load balancers and monitoring. Answers 503 with the same body shape ' +
    "({ status: 'unavailable', database: 'down' }) and a Retry-After header when the database does not answer within 2 s.",
});

export const healthCalls = [healthGet] as const;
