import dns from 'node:dns';
import net from 'node:net';

/**
 * Addresses a webhook must not reach unless the operator allows it: loopback, private, link-local
 * (cloud metadata), carrier-grade NAT, unique-local, multicast and unspecified ranges.
 */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // Local-use NAT64 (RFC 8215): translated by the operator's own gateway, to its own network.
  ['64:ff9b:1::', 48],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/** The sixteen bytes of a valid IPv6 address (zone index dropped), dotted IPv4 tail included. */
function ipv6Bytes(address: string): number[] {
  const bare = address.split('%')[0] ?? '';
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
  const text = tail
    ? `${bare.slice(0, tail.index)}${(Number(tail[1]) * 256 + Number(tail[2])).toString(16)}:${(Number(tail[3]) * 256 + Number(tail[4])).toString(16)}`
    : bare;
  const [head = '', rest] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(rest);
  const all = rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
const ipv4At = (bytes: number[], at: number, mask = 0) =>
  bytes
    .slice(at, at + 4)
    .map((byte) => (byte ^ mask) & 0xff)
    .join('.');

/**
 * The IPv4 address an IPv6 address carries to an IPv4 host, in the forms that reach one: mapped
 * (::ffff:a.b.c.d), SIIT (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96),
 * 6to4 (2002::/16) and Teredo (2001::/32, the client's address, inverted).
 */
export function embeddedIpv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  const zeros = (count: number) => Array<number>(count).fill(0);
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return ipv4At(bytes, 12);
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return ipv4At(bytes, 12);
  if (startsWith(bytes, zeros(12))) return ipv4At(bytes, 12);
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return ipv4At(bytes, 12);
  if (startsWith(bytes, [0x20, 0x02])) return ipv4At(bytes, 2);
  if (startsWith(bytes, [0x20, 0x01, 0, 0])) return ipv4At(bytes, 12, 0xff);
  return undefined;
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address.split('%')[0] ?? '');
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  if (blocked.check(address.split('%')[0] ?? '', 'ipv6')) return true;
  const ipv4 = embeddedIpv4(address);
  return ipv4 !== undefined && blocked.check(ipv4, 'ipv4');
}

export class WebhookUrlError extends Error {}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Checks a webhook URL when it is saved: http(s), and not resolving to a private address. A name
 * that does not resolve now is accepted; delivery checks the address it connects to again.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<void> {
  const url = new URL(raw);
  if (url.username || url.password) throw new WebhookUrlError('"url" must not carry credentials');
  if (allowPrivate) return;
  const host = hostOf(url);
  const addresses = net.isIP(host)
    ? [host]
    : await dns.promises.lookup(host, { all: true }).then(
        (found) => found.map((a) => a.address),
        () => [],
      );
  if (addresses.some(isPrivateAddress)) throw new WebhookUrlError('WEBHOOK_URL_NOT_ALLOWED: it resolves to a private, loopback or link-local address');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for the delivery agent that refuses private addresses at connection time, so a name
 * that changes its answer after it was saved (DNS rebinding) still cannot reach the inside.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const allowed = addresses.filter((a) => !isPrivateAddress(a.address));
    if (allowed.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(`WEBHOOK_URL_NOT_ALLOWED: ${hostname} resolves to a private address`);
      refused.code = 'EPRIVATE';
      return callback(refused, []);
    }
    if (options.all) return callback(null, allowed);
    const first = allowed[0]!;
    return callback(null, first.address, first.family);
  });
}
