/**
 * Whether a registered webhook host is a public address. spec: Limits — Webhook endpoints are
 * "HTTPS, port 443, public address". The mock refuses literal private, loopback and link-local
 * addresses and `localhost`; it resolves no names. Local receivers are reached through
 * `mockWebhooks(gateway).route()` instead.
 */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return false;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (a === 0 || a === 10 || a === 127) return false;
    if (a === 169 && b === 254) return false;
    if (a === 172 && b >= 16 && b <= 31) return false;
    if (a === 192 && b === 168) return false;
    if (a === 100 && b >= 64 && b <= 127) return false;
    return true;
  }
  if (host.includes(':')) {
    if (host === '::' || host === '::1') return false;
    if (/^f[cd]/.test(host) || /^fe[89ab]/.test(host)) return false;
    // IPv4-mapped addresses: the URL parser writes them in hex, so none is taken as public.
    if (host.startsWith('::ffff:')) return false;
  }
  return true;
}
