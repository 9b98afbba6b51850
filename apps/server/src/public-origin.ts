import { isIP } from 'node:net';
import type { Config } from './config';

/**
 * Where the server's links point when PUBLIC_ORIGIN is unset: the origin it
 * serves, from HOST and PORT (`modules/identity/password/links.ts`,
 * `publicOrigin`, builds every link from it), and the start-up warning that
 * says so (`server.ts`).
 */

/** HOST values that listen on every address: a link on this machine reaches them as localhost. */
const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

/**
 * The origin this server serves (HOST and PORT), as a link opened on the
 * machine itself reaches it: `http://localhost:{PORT}` when HOST is a
 * wildcard or a loopback address (the one name sure to work there), else
 * `http://{HOST}:{PORT}`.
 */
export function servedOrigin(config: Pick<Config, 'host' | 'port'>): string {
  const host = config.host.trim();
  if (WILDCARD_HOSTS.has(host) || isLoopback(host)) return `http://localhost:${config.port}`;
  const name = isIP(host) === 6 ? `[${host}]` : host;
  try {
    return new URL(`http://${name}:${config.port}`).origin;
  } catch {
    return `http://localhost:${config.port}`;
  }
}

/**
 * The start-up warning of a server without PUBLIC_ORIGIN: its e-mails' links
 * then point to {@link servedOrigin}, which users elsewhere may not reach.
 * None in development and tests (NODE_ENV), none with PUBLIC_ORIGIN set.
 */
export function publicOriginWarning(
  config: Pick<Config, 'publicOrigin' | 'host' | 'port'>,
  nodeEnv: string | undefined,
): string | undefined {
  if (config.publicOrigin !== undefined) return undefined;
  if (nodeEnv === 'development' || nodeEnv === 'test') return undefined;
  return (
    `PUBLIC_ORIGIN is not set: links in e-mails point to ${servedOrigin(config)}; ` +
    'set it to the address users reach'
  );
}
