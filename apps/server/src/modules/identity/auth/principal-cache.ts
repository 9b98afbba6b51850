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

export function createPrincipalCache(opts: {
  ttlMs: number;
  /** A new client on the application's database (not from the pool: it stays connected). */
  connect: () => pg.Client;
  log: CacheLogger;
}): PrincipalCache {
  const entries = new Map<string, { found: SessionWithUser; at: number }>();
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retryMs = RECONNECT_MS.first;
  let retryTimer: NodeJS.Timeout | undefined;
  let readyWaiters: (() => void)[] = [];

  const clear = () => {
    generation += 1;
    entries.clear();
  };

  const lost = (current: pg.Client) => {
    if (client !== current) return;
    client = undefined;
    listening = false;
    clear();
    void current.end().catch(() => undefined);
    if (closed) return;
    retryTimer = setTimeout(() => void listen(), retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MS.max);
  };

  const listen = async () => {
    if (closed) return;
    const current = opts.connect();
    client = current;
    current.on('notification', clear);
    current.on('error', (err) => {
      opts.log.warn({ err }, 'principal cache: listening connection failed; not caching');
      lost(current);
    });
    current.on('end', () => lost(current));
    try {
      await current.connect();
      await current.query(`LISTEN ${PRINCIPALS_CHANNEL}`);
    } catch (err) {
      opts.log.warn({ err }, 'principal cache: cannot listen; not caching');
      lost(current);
      return;
    }
    if (client !== current || closed) return;
    clear();
    listening = true;
    retryMs = RECONNECT_MS.first;
    for (const resolve of readyWaiters) resolve();
    readyWaiters = [];
  };
  void listen();

  return {
    get(sessionId, now) {
      if (!listening) return undefined;
      const entry = entries.get(sessionId);
      if (!entry) return undefined;
      const t = now.getTime();
      if (t - entry.at >= opts.ttlMs || entry.found.session.expiresAt.getTime() <= t) {
        entries.delete(sessionId);
        return undefined;
      }
      return entry.found;
    },
    generation: () => generation,
    set(sessionId, found, taken, now) {
      if (!listening || taken !== generation) return;
      if (entries.size >= MAX_ENTRIES && !entries.has(sessionId)) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(sessionId, { found, at: now.getTime() });
    },
    clear,
    get listening() {
      return listening;
    },
    ready(timeoutMs = 10_000) {
      if (listening) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('principal cache not listening')),
          timeoutMs,
        );
        readyWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    async close() {
      closed = true;
      listening = false;
      clear();
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/** A client with the pool's own connection settings, kept alive (a dead peer is noticed). */
export function listeningClientOf(pool: pg.Pool): pg.Client {
  return new pg.Client({ ...pool.options, keepAlive: true });
}
