/**
 * spec: Limits — webhook endpoints are "HTTPS, port 443, public address". A host written as an
 * IP literal in a range that no one on the internet can reach, or named `localhost`, is not a
 * public address. Names are not resolved: a DNS name that points at a private address is the
 * gateway's to refuse.
 */

/** Why an IPv4 address (as four octets) is not public, or `undefined` when it is. */
function privateV4(a: number, b: number): string | undefined {
  if (a === 0) return 'an unspecified ("this network") address';
  if (a === 127) return 'a loopback address';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) {
    return 'a private address';
  }
  if (a === 100 && b >= 64 && b <= 127) return 'a shared (carrier-grade NAT) address';
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 192 && b === 0) return 'a reserved address';
  if (a === 198 && (b === 18 || b === 19)) return 'a reserved (benchmarking) address';
  if (a >= 224) return a < 240 ? 'a multicast address' : 'a reserved address';
  return undefined;
}

/** The eight 16-bit groups of a canonical IPv6 literal (as the URL parser writes it), or undefined. */
function v6Groups(host: string): number[] | undefined {
  const halves = host.split('::');
  if (halves.length > 2) return undefined;
  const part = (text: string | undefined) => (text ? text.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return undefined;
  const groups = [...head, ...Array<string>(fill).fill('0'), ...tail].map((g) => Number.parseInt(g, 16));
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** Why an IPv6 address is not public, or `undefined` when it is. */
function privateV6(groups: number[]): string | undefined {
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroUpTo(7) && g7 === 0) return 'an unspecified address';
  if (zeroUpTo(7) && g7 === 1) return 'a loopback address';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judged as the IPv4 address.
  if (zeroUpTo(5) && (g5 === 0xffff || g5 === 0)) {
    const v4 = privateV4(g6 >> 8, g6 & 0xff);
    return v4 && `${v4} mapped into IPv6`;
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'a private (unique local) address';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g0 & 0xffc0) === 0xfec0) return 'a site-local address';
  if ((g0 & 0xff00) === 0xff00) return 'a multicast address';
  return undefined;
}

/**
 * Why `hostname` (a `URL`'s `hostname`; IPv6 with or without brackets) is not a public address, or
 * `undefined` when it may be: `localhost` and `*.localhost`, `*.local` (multicast DNS), and IP
 * literals in the unspecified, loopback, private, shared (100.64/10), link-local, reserved and
 * multicast ranges, IPv4-mapped IPv6 included. The URL parser has already turned `0x7f.1` or
 * `2130706433` into `127.0.0.1`, so those are caught as well.
 * @example notPublicReason('10.0.0.5') // 'a private address'
 */
export function notPublicReason(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'a loopback name';
  if (host.endsWith('.local')) return 'a local network (multicast DNS) name';
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return privateV4(Number(v4[1]), Number(v4[2]));
  if (host.includes(':')) {
    const groups = v6Groups(host.replace(/^\[|\]$/g, ''));
    return groups ? privateV6(groups) : undefined;
  }
  return undefined;
}

/** Whether `hostname` may be a public address (see `notPublicReason`). */
export function isPublicHost(hostname: string): boolean {
  return notPublicReason(hostname) === undefined;
}
