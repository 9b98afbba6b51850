import type { FastifyInstance } from 'fastify';
import { registerMailWorker } from './worker';

/** Mail: no calls of its own, only the `mail.send` worker (queue with `queueMail`). */
export async function mailModule(app: FastifyInstance): Promise<void> {
  registerMailWorker(app);
}
