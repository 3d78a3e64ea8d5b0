import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The `mediagw` entry as users import it. */
export type Mediagw = typeof import('mediagw');
/** The `mediagw/webhooks` entry. */
export type MediagwWebhooks = typeof import('mediagw/webhooks');
/** The `mediagw/testing` entry. */
export type MediagwTesting = typeof import('mediagw/testing');

/** The built `dist/` folder under measurement, passed to child processes as `BENCH_DIST`. */
export function distDir(): string {
  const dir = process.env.BENCH_DIST;
  if (!dir) throw new Error('BENCH_DIST is not set: run the bench through bench/run.ts');
  return dir;
}

async function load<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(join(distDir(), file)).href)) as T;
}

/** Imports the built `mediagw` (ESM). */
export const loadMediagw = () => load<Mediagw>('index.js');
/** Imports the built `mediagw/webhooks` (ESM). */
export const loadWebhooks = () => load<MediagwWebhooks>('webhooks/index.js');
/** Imports the built `mediagw/testing` (ESM). */
export const loadTesting = () => load<MediagwTesting>('testing/index.js');
