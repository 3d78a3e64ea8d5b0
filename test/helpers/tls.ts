import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import type { FetchLike } from '../../src/core/fetch-like.js';
import type { TlsIdentity } from './raw-server.js';

/**
 * A certificate for 127.0.0.1, valid for a day, made with the system's `openssl`: made at run
 * time, so no key sits in the repository and none expires there. Trust it by its `cert`
 * (undici: `new Agent({ connect: { ca: cert } })`).
 */
export function selfSignedCertificate(): TlsIdentity {
  const dir = mkdtempSync(join(tmpdir(), 'mediagw-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  } catch (error) {
    throw new Error(
      'could not make a test certificate with openssl; install it with: bash scripts/debian-package-for-tests.sh openssl openssl',
      { cause: error },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A {@link selfSignedCertificate} for a test's https origin, with an undici `Agent` that trusts
 * it (and nothing else of it) and a `fetch` that sends through that Agent.
 */
export function trustedIdentity(): { identity: TlsIdentity; agent: Agent; trustingFetch: FetchLike } {
  const identity = selfSignedCertificate();
  const agent = new Agent({ connect: { ca: identity.cert } });
  const trustingFetch: FetchLike = (url, init) =>
    undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    }) as unknown as ReturnType<FetchLike>;
  return { identity, agent, trustingFetch };
}
