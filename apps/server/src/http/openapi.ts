import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  CALL_TAGS,
  TOTAL_COUNT_HEADER,
  WEBHOOK_EVENT_TEXT,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  WEBHOOK_MESSAGES,
  WEBHOOK_TAG,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const API_VERSION = '0.1.0';

interface OpenApiDocument {
  paths?: unknown;
  webhooks?: unknown;
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

/** Drop component schemas no path or webhook reaches (directly or through other schemas). */
export function pruneUnusedSchemas<D extends object>(document: D): D {
  const doc = document as OpenApiDocument;
  const schemas = doc.components?.schemas;
  if (!schemas) return document;
  const used = new Set<string>();
  collectRefs(doc.paths, used);
  collectRefs(doc.webhooks, used);
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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keywords whose value is one subschema, a list of them, or a map of them (JSON Schema 2020-12). */
const ONE_SCHEMA = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs'];

/**
 * A request schema (Zod's input form) states a field's default in words, not
 * with the `default` keyword: such a field is optional (it is not `required`),
 * but generators read `default` as "always present" (openapi-typescript's
 * `defaultNonNullable` makes it a required field of a component schema) and
 * an integrator would have to send it. Replies (output form) keep theirs: there
 * the field is required, always present. Walks subschemas only, so a property
 * named `default` is kept.
 */
export function defaultsInWords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsInWords);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'default') continue;
    if (ONE_SCHEMA.includes(key) || SCHEMA_LISTS.includes(key)) out[key] = defaultsInWords(value);
    else if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, defaultsInWords(v)]));
    } else out[key] = value;
  }
  if ('default' in schema && schema.default !== undefined) {
    const said = `Default: \`${JSON.stringify(schema.default)}\`.`;
    const before = typeof schema.description === 'string' ? schema.description.trim() : '';
    out.description = before === '' ? said : `${before.replace(/([^.])$/, '$1.')} ${said}`;
  }
  return out;
}

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

/**
 * Request bodies in their input form without `default` ({@link defaultsInWords}):
 * the component schemas of the input registry (`...Input`) and the bodies
 * written inline. Query parameters keep theirs (every generator treats a
 * parameter with a default as optional).
 */
export function requestDefaultsInWords<D extends object>(document: D): D {
  const doc = document as OpenApiDocument;
  const schemas = doc.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (name.endsWith('Input')) schemas[name] = defaultsInWords(schema);
  }
  const paths = (doc.paths ?? {}) as Record<string, Record<string, OpenApiOperation>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        media.schema = defaultsInWords(media.schema);
      }
    }
  }
  return document;
}

const SIGNATURE = { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' };
const WEBHOOK_HEADER_SCHEMAS: Record<keyof typeof WEBHOOK_HEADERS, Json> = {
  'X-Coldtrace-Event': { type: 'string', enum: [...WEBHOOK_EVENTS] },
  'X-Coldtrace-Delivery': { type: 'string', format: 'uuid' },
  'X-Coldtrace-Signature': SIGNATURE,
  'X-Coldtrace-Timestamp': { type: 'string', pattern: '^[0-9]+$' },
  'X-Coldtrace-Timestamp-Signature': SIGNATURE,
};

const MESSAGE_TEXT =
  'Coldtrace POSTs this JSON message (`User-Agent: Coldtrace-Webhooks/1.0`) to every active ' +
  'webhook of the organization that chose the event. Verify both signatures against the raw ' +
  'body before parsing it, and deduplicate by `id`: delivery is at least once, in no promised ' +
  'order. Answer any 2xx within 10 seconds; anything else (a redirect too: redirects are not ' +
  'followed) is retried with exponential back-off for one to two days.';

/** The webhook messages of the document (OpenAPI 3.1 `webhooks`), one per event. */
export function webhooksDocument(): Record<string, unknown> {
  const parameters = Object.entries(WEBHOOK_HEADERS).map(([name, description]) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: WEBHOOK_HEADER_SCHEMAS[name as keyof typeof WEBHOOK_HEADERS],
  }));
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => {
      const id = WEBHOOK_MESSAGES[event].meta()?.id;
      return [
        event,
        {
          post: {
            operationId: `webhook_${event.replace('.', '_')}`,
            summary: `The ${event} message`,
            description: `${WEBHOOK_EVENT_TEXT[event]}\n\n${MESSAGE_TEXT}`,
            tags: [WEBHOOK_TAG.name],
            parameters,
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: `${SCHEMA_REF}${id}` } } },
            },
            responses: {
              '2XX': { description: 'Received: the delivery is done (any 2xx within 10 seconds)' },
              '4XX': {
                description:
                  'Refused (e.g. a signature that does not verify): a failed attempt, retried',
              },
              '5XX': { description: 'Failed: retried with back-off, every attempt logged' },
            },
            security: [],
          },
        },
      ];
    }),
  );
}

/** How a caller authenticates (the names `register-call.ts` lists in each call's `security`). */
const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'sessionid',
    description: 'The session of a signed-in browser (POST /api/auth/login/)',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRFToken',
    description:
      'The `csrftoken` cookie value (GET /api/auth/csrf/), sent with the session ' +
      'cookie, or anonymously, on a state-changing call',
  },
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
    description:
      "`Api-Key <key>`: an organization's API key (generated by an administrator, " +
      'POST /api/keys/generate/). It works on the calls that list it, in its ' +
      "organization and within its role's permissions; a read-only key only on " +
      'reads (403 "This API key is read-only." otherwise); a key never signs. ' +
      'POST /api/keys/authenticate/ answers what a key may do.',
  },
  apiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'The same API key as `apiKeyAuth`, sent alone in this header instead.',
  },
} as const;

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Coldtrace API',
        version: API_VERSION,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Cold-chain shipment temperature monitoring. Errors answer `ErrorReply` ' +
          '(`code`, `message`, `fields`). State-changing calls made with the session ' +
          'cookie, or anonymously, send the `csrftoken` cookie value in `X-CSRFToken`. ' +
          'Integrations authenticate with an API key (`Authorization: Api-Key <key>`); ' +
          'downloads answer the file under its own media type; the messages Coldtrace ' +
          'sends to webhook endpoints are under `webhooks`.',
      },
      servers: [
        {
          url: '/',
          description: 'The server that serves this document (at /api/schema/)',
        },
      ],
      tags: [
        ...Object.entries(CALL_TAGS).map(([name, description]) => ({ name, description })),
        { ...WEBHOOK_TAG },
      ],
      components: {
        securitySchemes: SECURITY_SCHEMES,
      },
    },
    transform: jsonSchemaTransform,
    // The contract registers every entity with an id; keep only what the registered calls use.
    transformObject: (documentObject) =>
      documentTotalCount(
        requestDefaultsInWords(
          pruneUnusedSchemas({
            ...jsonSchemaTransformObject(documentObject),
            webhooks: webhooksDocument(),
          }),
        ),
      ) as ReturnType<typeof jsonSchemaTransformObject>,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/schema/', { schema: { hide: true } }, async () => app.swagger());
}
