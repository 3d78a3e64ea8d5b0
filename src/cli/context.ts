/**
 * What every command shares: the global flags, the output, and the client. The client is built
 * only by commands that talk to the gateway, so `validate`, `estimate` and `webhooks` need no
 * key. `--mock` starts the mock gateway in this process and points the client at it.
 */
import type { Command } from 'commander';
import { MediaGateway } from '../index.js';
import type { MockGateway } from '../testing/index.js';
import { CliError } from './exit-codes.js';
import { Interrupt, type Stage } from './interrupt.js';
import { Output } from './output.js';
import { environmentProxy } from './proxy.js';

/** The flags of the `mediagw` program, valid before or after any subcommand. */
export interface GlobalOptions {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  json?: boolean | undefined;
  verbose?: boolean | undefined;
  mock?: boolean | undefined;
  maxRetries?: number | undefined;
}

/** The shared state of one run of the command. */
export class Context {
  readonly output: Output;
  private client: MediaGateway | undefined;
  private key: string | undefined;
  private gateway: MockGateway | undefined;

  /** The signals of the run in progress; {@link Context.of} hands them to the command. */
  static runInterrupt: Interrupt | undefined;

  constructor(
    readonly globals: GlobalOptions,
    /** SIGINT, SIGTERM and SIGHUP during the run: its `signal` is given to every request. */
    readonly interrupt: Interrupt = new Interrupt(),
  ) {
    this.output = new Output(Boolean(globals.json), Boolean(globals.verbose));
  }

  /** The context of the command being run, from its global options. */
  static of(command: Command): Context {
    return new Context(command.optsWithGlobals<GlobalOptions>(), Context.runInterrupt);
  }

  /** The abort signal of the run, for every request: `{ signal: ctx.signal }`. */
  get signal(): AbortSignal {
    return this.interrupt.signal;
  }

  /** Says what the command is doing, for the message a signal ends it with. */
  during(stage: Stage | undefined): void {
    this.interrupt.during(stage);
  }

  /**
   * The command that finishes a job (waits for the task and saves what `saves` names), with the
   * flags the run was given that it needs; `undefined` under `--mock`, whose gateway and tasks
   * end with this command.
   */
  finishCommand(parts: string[]): string | undefined {
    if (this.globals.mock) return undefined;
    const all = ['mediagw', ...parts];
    if (this.globals.baseUrl !== undefined) all.push('--base-url', this.globals.baseUrl);
    if (this.globals.json) all.push('--json');
    return all.map(shellWord).join(' ');
  }

  /**
   * The client: `--api-key` or `MEDIAGW_API_KEY`, `--base-url` or `MEDIAGW_BASE_URL`; with
   * `--mock`, the embedded mock gateway's URL and key. Through the environment's proxy, if any
   * (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`: see proxy.ts).
   *
   * @throws CliError (exit 1) naming the flag and the variable when the key or URL is missing.
   */
  async gatewayClient(): Promise<MediaGateway> {
    if (this.client) return this.client;
    let apiKey = this.globals.apiKey ?? process.env.MEDIAGW_API_KEY;
    let baseURL = this.globals.baseUrl ?? process.env.MEDIAGW_BASE_URL;
    let pollInterval: readonly [number, number] | undefined;
    if (this.globals.mock) {
      const { startMockGateway } = await import('../testing/index.js');
      this.gateway = await startMockGateway({ speed: 10 });
      // Waits poll at the mock's pace (3-5 mock seconds), not 3-5 real seconds for a 1 s task.
      ({ apiKey, baseURL, pollInterval } = this.gateway.clientOptions());
      this.output.debug(`embedded mock gateway at ${baseURL}`);
    }
    if (!apiKey) throw new CliError('no API key: pass --api-key or set MEDIAGW_API_KEY (or use --mock)');
    if (!baseURL) throw new CliError('no base URL: pass --base-url or set MEDIAGW_BASE_URL (or use --mock)');
    this.key = apiKey;
    const out = this.output;
    // HTTPS_PROXY, HTTP_PROXY and NO_PROXY (undici's EnvHttpProxyAgent); the embedded mock is reached directly.
    const dispatcher = this.globals.mock ? undefined : await environmentProxy();
    this.client = new MediaGateway({
      apiKey,
      baseURL,
      ...(dispatcher === undefined ? {} : { dispatcher }),
      ...(this.globals.maxRetries === undefined ? {} : { maxRetries: this.globals.maxRetries }),
      ...(pollInterval === undefined ? {} : { pollInterval }),
      // The SDK's log lines never hold the key; --verbose shows them on stderr.
      logger: out.verbose
        ? {
            debug: (message) => out.debug(message),
            warn: (message) => out.debug(message),
          }
        : undefined,
    });
    return this.client;
  }

  /**
   * The API key of {@link Context.gatewayClient}'s client, once it is built: for the pieces
   * that hash it (a `RedisRateLimiter` names its keys by the key's SHA-256). Never printed.
   */
  get apiKey(): string | undefined {
    return this.key;
  }

  /** Stops what the run started (the embedded mock gateway). */
  async close(): Promise<void> {
    await this.gateway?.close();
  }
}

/** A word as a POSIX shell reads it: kept as is when safe, else single-quoted. */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}
