import { describe, expect, it } from 'vitest';
import { AppError } from '../../kernel/errors';
import { checkWebhookUrl, isPublicAddress, type Resolver } from './addresses';

/**
 * The SSRF check (docs/decisions/webhooks.md): every way of writing a
 * loopback, private, link-local, unspecified or reserved address in a URL, and
 * every IPv6 range that carries such an IPv4 address, is refused naming `url`;
 * public forms are accepted. IP literals: no resolution.
 */

/** The reason a URL is refused (the `url` field's message), or null when it is accepted. */
async function refusal(url: string, resolve?: Resolver): Promise<string | null> {
  try {
    await checkWebhookUrl(url, false, resolve);
    return null;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err.statusCode).toBe(400);
    expect(err.fields).toHaveProperty('url');
    return err.fields!.url!;
  }
}

/** A Teredo address (2001::/32): server IPv4, then the client's IPv4 obfuscated (each bit flipped). */
function teredo(server: string, client: string): string {
  const hex = (octets: number[]) =>
    `${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  const octets = (v4: string) => v4.split('.').map(Number);
  return `2001:0:${hex(octets(server))}:8000:63bf:${hex(octets(client).map((o) => o ^ 0xff))}`;
}

const TEREDO_SERVER = '65.54.227.120';

const refused: [string, string][] = [
  // IPv4 loopback, as the URL parser reads every form of it.
  ['loopback', 'https://127.0.0.1/x'],
  ['loopback, end of 127/8', 'https://127.255.255.254/x'],
  ['loopback, decimal integer', 'https://2130706433/x'],
  ['loopback, hex integer', 'https://0x7f000001/x'],
  ['loopback, octal integer', 'https://017700000001/x'],
  ['loopback, octal octet', 'https://0177.0.0.1/x'],
  ['loopback, hex octet', 'https://0x7f.0.0.1/x'],
  ['loopback, two parts', 'https://127.1/x'],
  ['loopback, trailing dot', 'https://127.0.0.1./x'],
  // Unspecified, private, link-local, carrier-grade NAT, multicast, broadcast, reserved.
  ['unspecified', 'https://0.0.0.0/x'],
  ['unspecified, integer', 'https://0/x'],
  ['10/8', 'https://10.0.0.1/x'],
  ['10/8, decimal integer', 'https://167772161/x'],
  ['10/8, octal octet', 'https://012.0.0.1/x'],
  ['172.16/12', 'https://172.16.0.1/x'],
  ['172.16/12, end', 'https://172.31.255.255/x'],
  ['172.16/12, hex integer', 'https://0xac100001/x'],
  ['192.168/16', 'https://192.168.0.1/x'],
  ['192.168/16, decimal integer', 'https://3232235521/x'],
  ['169.254/16, cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
  ['169.254/16, hex integer', 'https://0xa9fea9fe/x'],
  ['100.64/10', 'https://100.64.0.1/x'],
  ['100.64/10, end', 'https://100.127.255.255/x'],
  ['multicast', 'https://224.0.0.1/x'],
  ['multicast, SSDP', 'https://239.255.255.250/x'],
  ['broadcast', 'https://255.255.255.255/x'],
  ['reserved 240/4', 'https://240.0.0.1/x'],
  ['documentation 192.0.2/24', 'https://192.0.2.1/x'],
  ['benchmarking 198.18/15', 'https://198.18.0.1/x'],
  // IPv6 loopback, unspecified and IPv4-compatible (::/96).
  ['IPv6 loopback', 'https://[::1]/x'],
  ['IPv6 loopback, long', 'https://[0:0:0:0:0:0:0:1]/x'],
  ['IPv6 unspecified', 'https://[::]/x'],
  ['IPv4-compatible loopback', 'https://[::127.0.0.1]/x'],
  ['IPv4-compatible loopback, hex', 'https://[::7f00:1]/x'],
  ['IPv4-compatible private', 'https://[::10.0.0.1]/x'],
  ['IPv4-compatible, even public', 'https://[::8.8.8.8]/x'],
  // IPv4-mapped and IPv4-translated.
  ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/x'],
  ['IPv4-mapped loopback, hex', 'https://[::ffff:7f00:1]/x'],
  ['IPv4-mapped loopback, long', 'https://[0:0:0:0:0:ffff:7f00:1]/x'],
  ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/x'],
  ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/x'],
  ['IPv4-translated loopback', 'https://[::ffff:0:127.0.0.1]/x'],
  // NAT64.
  ['NAT64 loopback', 'https://[64:ff9b::7f00:1]/x'],
  ['NAT64 loopback, dotted', 'https://[64:ff9b::127.0.0.1]/x'],
  ['NAT64 10/8', 'https://[64:ff9b::a00:1]/x'],
  ['NAT64 192.168/16', 'https://[64:ff9b::c0a8:101]/x'],
  ['NAT64 metadata', 'https://[64:ff9b::a9fe:a9fe]/x'],
  ['NAT64 unspecified', 'https://[64:ff9b::]/x'],
  ['local-use NAT64 10/8', 'https://[64:ff9b:1::a00:1]/x'],
  ['local-use NAT64, not the /96 layout', 'https://[64:ff9b:1:a00:1::]/x'],
  // 6to4 and Teredo.
  ['6to4 loopback', 'https://[2002:7f00:1::]/x'],
  ['6to4 10/8', 'https://[2002:a00:1::1]/x'],
  ['6to4 192.168/16', 'https://[2002:c0a8:101::]/x'],
  ['6to4 metadata', 'https://[2002:a9fe:a9fe::]/x'],
  ['Teredo, loopback client', `https://[${teredo(TEREDO_SERVER, '127.0.0.1')}]/x`],
  ['Teredo, private client', `https://[${teredo(TEREDO_SERVER, '10.0.0.1')}]/x`],
  ['Teredo, private server', `https://[${teredo('192.168.0.1', '8.8.8.8')}]/x`],
  // ISATAP interface identifiers under a global prefix.
  ['ISATAP, private', 'https://[2a00:1450::5efe:a00:1]/x'],
  ['ISATAP, loopback', 'https://[2a00:1450::200:5efe:7f00:1]/x'],
  // IPv6 ranges of their own.
  ['unique-local fc00::/7', 'https://[fc00::1]/x'],
  ['unique-local fd00::/8', 'https://[fd12:3456::1]/x'],
  ['link-local fe80::/10', 'https://[fe80::1]/x'],
  ['link-local, end', 'https://[febf::1]/x'],
  ['site-local (deprecated)', 'https://[fec0::1]/x'],
  ['multicast ff02::1', 'https://[ff02::1]/x'],
  ['multicast ff05::1:3', 'https://[ff05::1:3]/x'],
  ['documentation 2001:db8::/32', 'https://[2001:db8::1]/x'],
  ['discard 100::/64', 'https://[100::1]/x'],
];

const accepted: [string, string][] = [
  ['IPv4', 'https://8.8.8.8/x'],
  ['IPv4, decimal integer', 'https://134744072/x'],
  ['IPv4, hex integer', 'https://0x8080808/x'],
  ['IPv4', 'https://93.184.216.34/x'],
  ['IPv6', 'https://[2606:4700:4700::1111]/x'],
  ['IPv6', 'https://[2a00:1450:4001:830::200e]/x'],
  ['IPv4-mapped public', 'https://[::ffff:8.8.8.8]/x'],
  ['NAT64 public', 'https://[64:ff9b::808:808]/x'],
  ['NAT64 public, dotted', 'https://[64:ff9b::8.8.8.8]/x'],
  ['local-use NAT64 public, /96 layout', 'https://[64:ff9b:1::808:808]/x'],
  ['6to4 public', 'https://[2002:808:808::]/x'],
  ['6to4 public, a host of its /48', 'https://[2002:808:808:1::1]/x'],
  ['Teredo, public client and server', `https://[${teredo(TEREDO_SERVER, '8.8.8.8')}]/x`],
  ['ISATAP, public', 'https://[2a00:1450::5efe:808:808]/x'],
];

describe('webhook URL addresses [FEAT-WEBHOOKS]', () => {
  it.each(refused)('refuses %s: %s', async (_what, url) => {
    expect(await refusal(url)).toMatch(/webhooks only reach public addresses/);
  });

  it.each(accepted)('accepts %s: %s', async (_what, url) => {
    expect(await refusal(url)).toBeNull();
  });

  it('names what an IPv6 address carries, or that it is IPv4-compatible', async () => {
    expect(await refusal('https://[64:ff9b::a00:1]/x')).toContain('carries 10.0.0.1');
    expect(await refusal('https://[2002:7f00:1::]/x')).toContain('carries 127.0.0.1');
    expect(await refusal(`https://[${teredo(TEREDO_SERVER, '127.0.0.1')}]/x`)).toContain(
      'carries 127.0.0.1',
    );
    expect(await refusal('https://[::127.0.0.1]/x')).toContain('IPv4-compatible');
  });

  it('judges every address a host name resolves to, in the forms a resolver may answer', async () => {
    const resolvingTo =
      (...addresses: string[]): Resolver =>
      async () =>
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    for (const address of [
      '127.0.0.1',
      '::1',
      '::7f00:1',
      '::ffff:7f00:1',
      '::ffff:127.0.0.1',
      '64:ff9b::a00:1',
      '2002:a9fe:a9fe::',
      'fe80::1%eth0',
    ]) {
      expect(await refusal('https://hook.example/x', resolvingTo(address)), address).toContain(
        `resolves to ${address}`,
      );
      // One private address among public ones is enough.
      expect(await refusal('https://hook.example/x', resolvingTo('8.8.8.8', address))).toContain(
        `resolves to ${address}`,
      );
    }
    expect(
      await refusal('https://hook.example/x', resolvingTo('8.8.8.8', '64:ff9b::808:808')),
    ).toBeNull();
  });

  it('lets every address through when private addresses are allowed, but not another scheme', async () => {
    await expect(checkWebhookUrl('http://[::127.0.0.1]:8080/x', true)).resolves.toMatchObject({
      addresses: [{ address: '::7f00:1', family: 6 }],
    });
    await expect(checkWebhookUrl('ftp://8.8.8.8/x', true)).rejects.toThrow('https://');
  });

  it('isPublicAddress: the ranges as addresses', () => {
    for (const address of [
      ...['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.0.1', '169.254.169.254', '100.64.1.1'],
      ...['0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd12::1'],
      ...['ff02::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1', '::7f00:1', '::ffff:7f00:1'],
      ...['64:ff9b::7f00:1', '64:ff9b::a00:1', '2002:7f00:1::', 'not an address'],
    ])
      expect(isPublicAddress(address), address).toBe(false);
    for (const address of [
      ...['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'],
      ...['64:ff9b::808:808', '2002:808:808::'],
    ])
      expect(isPublicAddress(address), address).toBe(true);
  });
});
