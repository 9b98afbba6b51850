import pg from 'pg';
import type { SessionWithUser } from './repository';

/**
 * A short-lived cache of session lookups (who is calling: the session, its
 * user, the role's permissions, whether the active terms are agreed), so a
 * signed-in request does not ask PostgreSQL for them again and again
 * (docs/decisions/list-performance.md, "Principal cache").
 *
 * Correctness does not rest on the time limit:
 * - Triggers on sessions, users, memberships, roles, terms of service and
 *   agreements (migration 0018) send a notification on PRINCIPALS_CHANNEL in
 *   the transaction that changes them; every process LISTENs and empties its
 *   cache when one arrives (PostgreSQL delivers it at commit).
 * - The process that made a change empties its cache before answering
 *   (`clear`, from the auth module's onSend hook, after every route
 *   `registerCall` marks `changesState`), so the next request, from anyone,
 *   sees it.
 * - A lookup that started before a clear is not stored (generation check).
 * - Nothing is served from the cache while the listening connection is down
 *   (until it is back, every request asks PostgreSQL); the time limit
 *   (PRINCIPAL_CACHE_SECONDS) only bounds a notification lost on a silently
 *   broken connection.
 */

export const PRINCIPALS_CHANNEL = 'coldtrace_principals';

/** At most this many sessions are kept; the oldest entry goes first. */
const MAX_ENTRIES = 10_000;
/** Reconnection waits for the listening connection: 1 s, doubled up to 30 s. */
const RECONNECT_MS = { first: 1_000, max: 30_000 };

export interface PrincipalCache {
  /** The cached lookup of a live session, if fresh and the cache is listening. */
  get(sessionId: string, now: Date): SessionWithUser | undefined;
  /** Take before a lookup; pass to `set` after it. */
  generation(): number;
  /** Keep a lookup, unless the cache was emptied since `generation` was taken. */
  set(sessionId: string, found: SessionWithUser, generation: number, now: Date): void;
  /** Forget everything (a change to who may do what was made or announced). */
  clear(): void;
  /** Whether the listening connection is up (entries are served only then). */
  readonly listening: boolean;
  /** Resolves once listening (tests); rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface CacheLogger {
  warn(obj: object, msg: string): void;
}

interface CacheOptions {
  ttlMs: number;
  /** A new client on the application's database (not from the pool: it stays connected). */
  connect: () => pg.Client;
  log: CacheLogger;
}

/** What a cache holds and where its listening connection stands. */
interface CacheState {
  readonly opts: CacheOptions;
  readonly entries: Map<string, { found: SessionWithUser; at: number }>;
  generation: number;
  listening: boolean;
  closed: boolean;
  client: pg.Client | undefined;
  retryMs: number;
  retryTimer: NodeJS.Timeout | undefined;
  readyWaiters: (() => void)[];
}

function clearEntries(state: CacheState): void {
  state.generation += 1;
  state.entries.clear();
}

/** The listening connection failed or ended: nothing is served until it is back (retried with a backoff). */
function lost(state: CacheState, current: pg.Client): void {
  if (state.client !== current) return;
  state.client = undefined;
  state.listening = false;
  clearEntries(state);
  void current.end().catch(() => undefined);
  if (state.closed) return;
  state.retryTimer = setTimeout(() => void listen(state), state.retryMs);
  state.retryTimer.unref();
  state.retryMs = Math.min(state.retryMs * 2, RECONNECT_MS.max);
}

/** Connect and LISTEN; every notification empties the cache. */
async function listen(state: CacheState): Promise<void> {
  if (state.closed) return;
  const { opts } = state;
  const current = opts.connect();
  state.client = current;
  current.on('notification', () => clearEntries(state));
  current.on('error', (err) => {
    opts.log.warn({ err }, 'principal cache: listening connection failed; not caching');
    lost(state, current);
  });
  current.on('end', () => lost(state, current));
  try {
    await current.connect();
    await current.query(`LISTEN ${PRINCIPALS_CHANNEL}`);
  } catch (err) {
    opts.log.warn({ err }, 'principal cache: cannot listen; not caching');
    lost(state, current);
    return;
  }
  if (state.client !== current || state.closed) return;
  clearEntries(state);
  state.listening = true;
  state.retryMs = RECONNECT_MS.first;
  for (const resolve of state.readyWaiters) resolve();
  state.readyWaiters = [];
}

function readyOf(state: CacheState, timeoutMs: number): Promise<void> {
  if (state.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('principal cache not listening')), timeoutMs);
    state.readyWaiters.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function closeCache(state: CacheState): Promise<void> {
  state.closed = true;
  state.listening = false;
  clearEntries(state);
  if (state.retryTimer) clearTimeout(state.retryTimer);
  const current = state.client;
  state.client = undefined;
  await current?.end().catch(() => undefined);
}

export function createPrincipalCache(opts: CacheOptions): PrincipalCache {
  const state: CacheState = {
    opts,
    entries: new Map(),
    generation: 0,
    listening: false,
    closed: false,
    client: undefined,
    retryMs: RECONNECT_MS.first,
    retryTimer: undefined,
    readyWaiters: [],
  };
  const { entries } = state;
  void listen(state);

  return {
    get(sessionId, now) {
      if (!state.listening) return undefined;
      const entry = entries.get(sessionId);
      if (!entry) return undefined;
      const t = now.getTime();
      if (t - entry.at >= opts.ttlMs || entry.found.session.expiresAt.getTime() <= t) {
        entries.delete(sessionId);
        return undefined;
      }
      return entry.found;
    },
    generation: () => state.generation,
    set(sessionId, found, taken, now) {
      if (!state.listening || taken !== state.generation) return;
      if (entries.size >= MAX_ENTRIES && !entries.has(sessionId)) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(sessionId, { found, at: now.getTime() });
    },
    clear: () => clearEntries(state),
    get listening() {
      return state.listening;
    },
    ready: (timeoutMs = 10_000) => readyOf(state, timeoutMs),
    close: () => closeCache(state),
  };
}

/** A client with the pool's own connection settings, kept alive (a dead peer is noticed). */
export function listeningClientOf(pool: pg.Pool): pg.Client {
  return new pg.Client({ ...pool.options, keepAlive: true });
}
