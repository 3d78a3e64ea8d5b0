import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
