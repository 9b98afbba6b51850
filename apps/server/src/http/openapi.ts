import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { TOTAL_COUNT_HEADER } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const API_VERSION = '0.1.0';

interface OpenApiDocument {
  paths?: unknown;
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
  [key: string]: unknown;
}

const SCHEMA_REF = '#/components/schemas/';

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, into);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) {
        into.add(value.slice(SCHEMA_REF.length));
      } else {
        collectRefs(value, into);
      }
    }
  }
}

/** Drop component schemas no path reaches (directly or through other schemas). */
export function pruneUnusedSchemas<D extends object>(document: D): D {
  const doc = document as OpenApiDocument;
  const schemas = doc.components?.schemas;
  if (!schemas) return document;
  const used = new Set<string>();
  collectRefs(doc.paths, used);
  const queue = [...used];
  while (queue.length > 0) {
    const found = new Set<string>();
    collectRefs(schemas[queue.pop()!], found);
    for (const name of found) {
      if (!used.has(name)) {
        used.add(name);
        queue.push(name);
      }
    }
  }
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...doc, components: { ...doc.components, schemas: kept } } as D;
}

/**
 * The OpenAPI 3.1 document, generated from the contract's Zod schemas of the
 * registered calls: `GET /api/schema/` serves it, `/api/docs/` browses it,
 * `scripts/write-openapi.ts` writes it to `docs/openapi.json` (committed).
 * Register before the routes so every route is collected.
 */
interface OpenApiResponse {
  content?: Record<string, { schema?: { type?: unknown } }>;
  headers?: Record<string, unknown>;
}

/** Every list reply (an array) states the x-total-count header `registerCall` sends with it. */
export function documentTotalCount<D extends object>(document: D): D {
  const paths =
    (
      document as {
        paths?: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
      }
    ).paths ?? {};
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const ok = operation.responses?.['200'];
      if (ok?.content?.['application/json']?.schema?.type !== 'array') continue;
      ok.headers = {
        ...ok.headers,
        [TOTAL_COUNT_HEADER]: {
          description: 'The number of matching rows (of every page, for a paged list)',
          schema: { type: 'integer', minimum: 0 },
        },
      };
    }
  }
  return document;
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Coldtrace API',
        version: API_VERSION,
        description:
          'Cold-chain shipment temperature monitoring. Errors answer `ErrorReply` ' +
          '(`code`, `message`, `fields`). State-changing calls made with the session ' +
          'cookie, or anonymously, send the `csrftoken` cookie value in `X-CSRFToken`.',
      },
      tags: [{ name: 'auth', description: 'Authentication and account' }],
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
          csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRFToken' },
          tokenAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: '`Token <token>`: a user token (POST /api/auth/tokens/)',
          },
          apiKeyAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: '`Api-Key <key>` (not served yet)',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    // The contract registers every entity with an id; keep only what the registered calls use.
    transformObject: (documentObject) =>
      documentTotalCount(pruneUnusedSchemas(jsonSchemaTransformObject(documentObject))),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/schema/', { schema: { hide: true } }, async () => app.swagger());
}
