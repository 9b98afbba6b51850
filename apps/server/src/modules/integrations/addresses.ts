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
 * unspecified, broadcast and reserved.
 *
 * An IPv6 address that leads to an IPv4 address it carries is judged by that
 * address (`CARRIERS`); IPv4-compatible addresses (::/96, deprecated) are
 * refused whatever they carry.
 */
export function isPublicAddress(address: string): boolean {
  return refusalOf(address) === null;
}

type Octets = number[];

/**
 * The IPv6 ranges (ipaddr.js names) whose addresses lead to IPv4 addresses
 * they carry, and those addresses; null: the range is refused whole.
 */
const CARRIERS: Partial<Record<string, (bytes: Octets, parts: number[]) => Octets[] | null>> = {
  // ::ffff:0:0/96, IPv4-mapped: the host's own IPv4 stack (RFC 4291).
  ipv4Mapped: (b) => [b.slice(12)],
  // ::ffff:0:0:0/96, IPv4-translated (RFC 6145).
  rfc6145: (b) => [b.slice(12)],
  // NAT64: the well-known 64:ff9b::/96 and the local-use 64:ff9b:1::/48 (RFC 6052, 8215).
  // In the local-use prefix only the /96 layout (64:ff9b:1::a.b.c.d) is accepted: with bits
  // 48-95 zero, every other layout of RFC 6052 would carry an address of 0.0.0.0/8.
  rfc6052: (b, p) => (p.slice(3, 6).every((x) => x === 0) ? [b.slice(12)] : null),
  // 2002::/16, 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD (RFC 3056).
  '6to4': (b) => [b.slice(2, 6)],
  // 2001::/32, Teredo: the server's IPv4, and the client's, obfuscated (RFC 4380).
  teredo: (b) => [b.slice(4, 8), b.slice(12).map((x) => x ^ 0xff)],
};

const REFUSED = 'a private, loopback or reserved address';

/** Why an address may not be reached (null: it may), as the end of a sentence. */
function refusalOf(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast' ? null : REFUSED;
  const v6 = parsed as ipaddr.IPv6;
  const parts = v6.parts;
  const bytes = v6.toByteArray();
  // ::/96 (:: and ::1 are in it too): IPv4-compatible, deprecated (RFC 4291); ipaddr.js calls
  // ::a.b.c.d unicast.
  if (parts.slice(0, 6).every((x) => x === 0))
    return parts[6] === 0 && parts[7]! <= 1 ? REFUSED : 'an IPv4-compatible address (::/96)';
  const carrier = CARRIERS[v6.range()];
  if (carrier) return carried(carrier(bytes, parts));
  if (v6.range() !== 'unicast') return REFUSED;
  // An ISATAP interface identifier ([0-3]00:5efe:a.b.c.d, RFC 5214), under any prefix.
  if ((parts[4]! & 0xfcff) === 0 && parts[5] === 0x5efe) return carried([bytes.slice(12)]);
  return null;
}

/** The refusal of an IPv6 address by the IPv4 addresses it carries (every one must be public). */
function carried(addresses: Octets[] | null): string | null {
  if (addresses === null) return REFUSED;
  const refused = addresses
    .map((octets) => new ipaddr.IPv4(octets))
    .find((v4) => v4.range() !== 'unicast');
  return refused ? `an address that carries ${refused.toString()}, ${REFUSED}` : null;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name (the system resolver, as a connection would). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

export interface CheckedUrl {
  url: URL;
  /** The addresses the host resolved to, all public (or any, when private ones are allowed). */
  addresses: ResolvedAddress[];
}

/** The host of a URL without the brackets of an IPv6 literal. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a webhook URL and resolves its host: https only (http too when
 * private addresses are allowed), no credentials, every resolved address
 * public. Throws 400 naming `url`. The URL parser has already written an
 * IPv4 host in any form (2130706433, 0x7f.1, 0177.0.0.1) as a.b.c.d and an
 * IPv6 one in its shortest form.
 */
export async function checkWebhookUrl(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<CheckedUrl> {
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
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw invalidField('url', `The host '${host}' could not be resolved`);
    }
  }
  if (addresses.length === 0) throw invalidField('url', `The host '${host}' could not be resolved`);
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const refusal = refusalOf(address);
      if (refusal !== null)
        throw invalidField(
          'url',
          `The host '${host}' resolves to ${address}, ${refusal}: webhooks only reach public addresses`,
        );
    }
  }
  return { url, addresses };
}
