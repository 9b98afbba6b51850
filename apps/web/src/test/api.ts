import {
  ERROR_CODES,
  TOTAL_COUNT_HEADER,
  ZErrorReply,
  authOrgSettingsGet,
  authSecondFactorGet,
  authSessionGet,
  type CallDef,
  type CallReply,
  type HttpMethod,
  type TErrorCode,
} from '@coldtrace/contract';
import { vi } from 'vitest';
import type { z } from 'zod';
import { secondFactorStatus, sessionUser } from './fixtures';

/**
 * The API of a component test: `fetch` stubbed per test, answering by method
 * and path from the contract's calls, and keeping every request the component
 * sent. A request body the call's schema refuses, a request nothing answers,
 * or a trip to /login is a problem that fails the test (setup.ts).
 */

/** One request as the component sent it (the GET cache-buster `_` left out). */
export interface SentRequest {
  method: HttpMethod;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body (undefined without one). */
  body: unknown;
  headers: Record<string, string>;
}

/** A reply other than the call's 200: an error, or a status of its own. */
export class StubReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** A page of a list with its total in `x-total-count` (the grids' server paging). */
export function pageReply<C extends CallDef>(
  _call: C,
  rows: CallReply<C>,
  total: number,
): StubReply {
  return new StubReply(200, rows, { [TOTAL_COUNT_HEADER]: String(total) });
}

/** An error reply as the server sends it (`{ code, message, fields }`, the code's status). */
export function errorReply(
  code: TErrorCode,
  message: string,
  fields?: Record<string, string>,
): StubReply {
  const body = ZErrorReply.parse({ code, message, ...(fields ? { fields } : {}) });
  return new StubReply(ERROR_CODES[code], body);
}

/** The body as the call's schema reads it (trimmed, defaults filled). */
type ParsedBody<C> =
  C extends CallDef<infer B, z.ZodType | undefined, z.ZodType | null>
    ? B extends z.ZodType
      ? z.output<B>
      : undefined
    : never;

/** A request as a handler gets it: the body parsed by the call's schema. */
export type HandledRequest<C extends CallDef> = Omit<SentRequest, 'body'> & {
  body: ParsedBody<C>;
};

type Answer<C extends CallDef> = CallReply<C> | StubReply;
/** What a call answers: a value, or a function of the request (it may wait, to hold a reply). */
export type Handler<C extends CallDef> =
  Answer<C> | ((request: HandledRequest<C>) => Answer<C> | Promise<Answer<C>>);

export interface ApiStub {
  /** Answers the call (a later `on` for the same call replaces the earlier one). */
  on<C extends CallDef>(call: C, handler: Handler<C>): ApiStub;
  /** Every request sent, in order. */
  readonly requests: readonly SentRequest[];
  /** The requests sent to one call. */
  sent(call: CallDef): SentRequest[];
  /** Requests nothing answered, refused bodies, trips to /login. */
  readonly problems: readonly string[];
}

interface Route {
  call: CallDef;
  handler: Handler<CallDef>;
}

let active: { problems: string[] } | null = null;

/** Notes a problem of the running test's API (setup.ts fails the test with it). */
export function reportApiProblem(problem: string): void {
  active?.problems.push(problem);
}

/** The problems of the test that just ran, and forgets its stub. */
export function takeApiProblems(): string[] {
  const problems = active?.problems ?? [];
  active = null;
  return problems;
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    headers[key] = value;
  });
  return headers;
}

function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Response {
  if (status === 204 || body === undefined) return new Response(null, { status: 204, headers });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * Stubs `fetch` for this test. The signed-in user (`sessionUser()`), their
 * second factor (none, not required) and the organization settings (defaults)
 * answer unless the test says otherwise.
 */
export function stubApi(): ApiStub {
  const routes: Route[] = [];
  const requests: SentRequest[] = [];
  const problems: string[] = [];
  active = { problems };

  const stub: ApiStub = {
    on(call, handler) {
      const index = routes.findIndex((route) => route.call === call);
      const route = { call, handler: handler as Handler<CallDef> };
      if (index >= 0) routes[index] = route;
      else routes.push(route);
      return stub;
    },
    requests,
    sent: (call) => requests.filter((r) => r.method === call.method && r.path === call.path),
    problems,
  };

  stub
    .on(authSessionGet, sessionUser())
    .on(authSecondFactorGet, secondFactorStatus())
    .on(authOrgSettingsGet, {});

  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase() as HttpMethod;
    const query = Object.fromEntries([...url.searchParams].filter(([key]) => key !== '_'));
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const request: SentRequest = {
      method,
      path: url.pathname,
      query,
      body: text === undefined ? undefined : JSON.parse(text),
      headers: headersOf(init),
    };
    requests.push(request);
    const route = routes.find((r) => r.call.method === method && r.call.path === url.pathname);
    if (!route) {
      problems.push(`No stub answers ${method} ${url.pathname}`);
      return jsonResponse(404, { code: 'NOT_FOUND', message: `No stub for ${url.pathname}` });
    }
    const { call, handler } = route;
    let body: unknown = request.body;
    // What the server would refuse, the test refuses too: the body must be the contract's.
    if (call.body && call.upload === undefined) {
      const parsed = call.body.safeParse(request.body);
      if (!parsed.success) {
        problems.push(
          `${call.operationId}: the body does not match the contract: ${parsed.error.message}`,
        );
        return jsonResponse(400, { code: 'VALIDATION_ERROR', message: 'Invalid body' });
      }
      body = parsed.data;
    }
    const answer =
      typeof handler === 'function'
        ? await (handler as (r: HandledRequest<CallDef>) => unknown)({ ...request, body })
        : handler;
    if (answer instanceof StubReply)
      return jsonResponse(answer.status, answer.body, answer.headers);
    return jsonResponse(call.reply === null ? 204 : 200, answer);
  });

  return stub;
}

/** A promise to settle later: holds a reply while the test looks at the waiting state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
