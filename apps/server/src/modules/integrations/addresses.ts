import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalidField } from '../../kernel/errors';

/**
 * SSRF protection (docs/decisions/webhooks.md): a webhook may only reach
 * public unicast addresses. ipaddr.js names the range of an address; every
 * range but `unicast` is refused: private (10/8, 172.16/12, 192.168/16),
 * loopback, link-local (169.254/16, fe80::/10, the cloud metadata address
 * included), carrier-grade NAT (100.64/10), multicast, unique-local (fc00::/7),
 * unspecified, broadcast and reserved. An IPv4-mapped IPv6 address
 * (::ffff:127.0.0.1) is judged as the IPv4 address it maps.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

export interface CheckedUrl {
  url: URL;
  /** The addresses the host resolved to, all public (or any, when private ones are allowed). */
  addresses: { address: string; family: number }[];
}

/** The host of a URL without the brackets of an IPv6 literal. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a webhook URL and resolves its host: https only (http too when
 * private addresses are allowed), no credentials, every resolved address
 * public. Throws 400 naming `url`.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField('url', 'Enter a valid URL (https://...)');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw invalidField('url', 'The URL must start with https://');
  if (url.username || url.password)
    throw invalidField('url', 'The URL must not hold a user name or password');
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw invalidField('url', `The host '${host}' could not be resolved`);
    }
  }
  if (addresses.length === 0) throw invalidField('url', `The host '${host}' could not be resolved`);
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused)
      throw invalidField(
        'url',
        `The host '${host}' resolves to ${refused.address}, a private, loopback or reserved address: webhooks only reach public addresses`,
      );
  }
  return { url, addresses };
}
