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
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
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
