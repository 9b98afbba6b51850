import type {} from '@fastify/cookie';
import type { RuntimeConfig } from '../config';
import type { Database } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { PasswordHasher } from '../modules/auth/passwords';
import type { Principal } from '../modules/auth/principal';

/** What the app decorates Fastify with (set in `app.ts`). */
declare module 'fastify' {
  interface FastifyInstance {
    config: RuntimeConfig;
    db: Database;
    passwords: PasswordHasher;
    /** The durable job queue; modules register workers with `jobs.work` while the app registers. */
    jobs: JobQueue;
  }
  interface FastifyRequest {
    /** Who made the request; set by `registerCall` before the handler runs (null: anonymous). */
    principal: Principal | null;
  }
}

export {};
