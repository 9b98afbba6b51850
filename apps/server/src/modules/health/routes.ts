import { healthGet, type THealth } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { RETRY_AFTER_SECONDS } from '../../kernel/errors';
import { registerCall } from '../../http/register-call';

/** The database must answer `select 1` within this time for the health check to say up. */
export const HEALTH_TIMEOUT_MS = 2_000;

/** Resolves true when the database answers `select 1` within `timeoutMs`, false otherwise (never throws). */
export async function databaseIsUp(app: FastifyInstance, timeoutMs = HEALTH_TIMEOUT_MS) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = app.db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `GET /api/health/` (an addition to the spec): 200 when the database answers, else 503 of the same shape. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, healthGet, async ({ reply }) => {
    if (await databaseIsUp(app)) return { status: 'ok', database: 'up' };
    const down: THealth = { status: 'unavailable', database: 'down' };
    // The route's 5xx schema is the error reply: a ready-made JSON text is sent as it is.
    await reply
      .code(503)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(down));
    return reply as never;
  });
}
