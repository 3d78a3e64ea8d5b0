import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs `test/reliability/fixtures/<script>` in a child Node process (`--expose-gc --import tsx`)
 * and returns what it printed, parsed as JSON. Rejects with its stderr when it fails.
 */
export function runChild<T>(script: string, args: readonly string[], timeoutMs = 120_000): Promise<T> {
  const path = fileURLToPath(new URL(`./fixtures/${script}`, import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', path, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`${script} exited with ${code ?? signal}: ${stderr.slice(-2_000)}`));
      try {
        resolve(JSON.parse(stdout) as T);
      } catch {
        reject(new Error(`${script} printed no JSON: ${stdout.slice(0, 500)} ${stderr.slice(-1_000)}`));
      }
    });
  });
}

/** Bytes in mebibytes, rounded to 0.1, for messages. */
export const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
