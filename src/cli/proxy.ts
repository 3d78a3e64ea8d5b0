/**
 * The proxy the environment names, as undici's `EnvHttpProxyAgent` reads it: `HTTPS_PROXY` for
 * https URLs, `HTTP_PROXY` for http ones and for https ones when `HTTPS_PROXY` is not set (curl
 * would connect directly), the lower-case names winning over the upper-case, and `NO_PROXY`, a
 * comma-separated list of hosts (a leading `.` or `*.` for their subdomains, `host:port`, or `*`
 * for every host) reached directly. Every command that sends a request goes through it: the
 * client of the gateway, `webhooks send`, and the deliveries of `mock --forward-to`. The embedded
 * mock of `--mock` runs in this process and is always reached directly.
 */
import type { Dispatcher } from 'undici';
import { CliError } from './exit-codes.js';

const VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;
/** The most connections to one origin, as the SDK's own default (`maxConnections`). */
const MAX_CONNECTIONS = 128;

let dispatcher: Promise<Dispatcher | undefined> | undefined;

/**
 * An undici dispatcher that honours the proxy variables, or `undefined` when none is set (undici
 * is then not loaded for it). Built once per run. Requests to an https URL go through a
 * `CONNECT` tunnel, to an http URL in absolute form, as curl sends them.
 *
 * @throws CliError (exit 1) naming the variable when a proxy is not an http(s) URL.
 */
export function environmentProxy(): Promise<Dispatcher | undefined> {
  dispatcher ??= build();
  return dispatcher;
}

async function build(): Promise<Dispatcher | undefined> {
  const set = VARIABLES.filter((name) => process.env[name]);
  if (set.length === 0) return undefined;
  for (const name of set) {
    const value = process.env[name] ?? '';
    let protocol: string | undefined;
    try {
      protocol = new URL(value).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      // The value may hold a password: only its name is told.
      throw new CliError(`${name} is not an http(s) URL of a proxy; fix it, or unset it to connect directly`);
    }
  }
  const { EnvHttpProxyAgent, Pool } = await import('undici');
  return new EnvHttpProxyAgent({
    proxyTunnel: false,
    connections: MAX_CONNECTIONS,
    // The pools to the proxy itself (absolute form) are bounded too.
    factory: (origin, options) => new Pool(origin, { ...options, connections: MAX_CONNECTIONS }),
  });
}
