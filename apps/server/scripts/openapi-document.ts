import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';

/**
 * The OpenAPI document of every registered call, generated from the contract
 * (what `GET /api/schema/` serves). Needs no database: the pool never connects.
 * Used by scripts/write-openapi.ts and tools/openapi-lint/run.ts.
 */
export async function openApiDocument(): Promise<object> {
  const handle = openDatabase('postgres://unused@127.0.0.1:1/unused');
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), secretKey: 'unused'.repeat(8) };
  const app = await buildApp({ config, db: handle.db });
  // The job queue would connect at ready; the document needs no queue.
  app.jobs.start = async () => undefined;
  try {
    await app.ready();
    // A plain copy: the document as JSON has it.
    return JSON.parse(JSON.stringify(app.swagger())) as object;
  } finally {
    await app.close();
    await handle.close();
  }
}
