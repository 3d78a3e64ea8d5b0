/**
 * The journal of a run shared by a fleet: every `runJobs` process (on any machine) that names
 * the same Redis and run works through the same records. Each write is one Lua script that
 * compares the job's version, so a job is claimed by exactly one process, and the budget is
 * checked and added in the same step; the reply is the acknowledgement the run waits for
 * before it sends a byte.
 */
import type { RedisCommandClient } from '../redis/index.js';
import {
  applyEntry,
  type ClaimRefusal,
  type JobJournal,
  JobJournalError,
  type JobRecord,
  type JournalEntry,
} from './journal.js';

// KEYS: records hash, versions hash, reserved seconds.
// ARGV: id, expected version, record JSON, reserved delta, budget ('' for none).
const WRITE = `
local v = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if v ~= tonumber(ARGV[2]) then
  return {'taken', tostring(v), redis.call('HGET', KEYS[1], ARGV[1]) or ''}
end
local delta = tonumber(ARGV[4])
local reserved = tonumber(redis.call('GET', KEYS[3]) or '0')
if delta > 0 and ARGV[5] ~= '' and reserved + delta > tonumber(ARGV[5]) then
  return {'budget', tostring(v), tostring(reserved)}
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], v + 1)
if delta ~= 0 then reserved = tonumber(redis.call('INCRBYFLOAT', KEYS[3], ARGV[4])) end
return {'ok', tostring(v + 1), tostring(reserved)}
`;

/** Options of {@link RedisJournal}. */
export interface RedisJournalOptions {
  /** The run's name: processes that give the same one share its jobs. */
  run: string;
  /** Prepended to every key. @default 'mediagw:' */
  prefix?: string | undefined;
  /** Longest wait for one Redis call, in ms; past it the run stops. @default 5000 */
  timeoutMs?: number | undefined;
}

/**
 * A journal in Redis, for a fleet of runners. Keys: `<prefix>jobs:<run>:records` (a hash of
 * job records), `…:versions` and `…:reserved`. Pass a connected node-redis client, or anything
 * with `sendCommand`.
 *
 * @throws JobJournalError when `run` is not a valid name, or `timeoutMs` not a whole number of
 * milliseconds from 1 to 2147483647.
 * @example
 * const journal = new RedisJournal(redis, { run: 'catalogue-2026-11' });
 * await runJobs(client, 'catalogue.jsonl', { journal, outputDir: '/mnt/shared/out' });
 */
export class RedisJournal implements JobJournal {
  private readonly map = new Map<string, JobRecord>();
  private readonly versions = new Map<string, number>();
  private reserved = 0;
  private readonly keys: [string, string, string];
  private readonly timeoutMs: number;
  readonly location: string;

  constructor(
    private readonly redis: RedisCommandClient,
    options: RedisJournalOptions,
  ) {
    if (typeof options.run !== 'string' || !/^[\w.:-]{1,128}$/.test(options.run))
      throw new JobJournalError('a Redis journal needs a run name: 1-128 letters, digits, or . _ : -');
    const base = `${options.prefix ?? 'mediagw:'}jobs:${options.run}:`;
    this.keys = [`${base}records`, `${base}versions`, `${base}reserved`];
    const timeoutMs = options.timeoutMs ?? 5_000;
    // A timer past 2^31 - 1 ms, or of NaN, fires after 1 ms: every call would time out.
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2_147_483_647)
      throw new JobJournalError(
        `a Redis journal's timeoutMs must be a whole number of milliseconds from 1 to 2147483647; got ${String(timeoutMs)}`,
      );
    this.timeoutMs = timeoutMs;
    this.location = `Redis run ${options.run}`;
  }

  private async call(args: string[]): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        this.redis.sendCommand(args),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${this.timeoutMs} ms`)),
            this.timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      throw new JobJournalError(
        `the journal (${this.location}) could not be read or written: ${(error as Error).message}; the run stopped`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  async open(): Promise<void> {
    await this.refresh();
  }

  get(id: string): JobRecord | undefined {
    return this.map.get(id);
  }

  async refresh(id?: string): Promise<void> {
    if (id !== undefined) {
      const reply = await this.call(['EVAL', READ_ONE, '3', ...this.keys, id]);
      const [record, version, reserved] = reply as [string | null, string | null, string | null];
      this.store(id, record, version);
      this.reserved = Number(reserved ?? 0);
      return;
    }
    const [records, versions, reserved] = (await this.call(['EVAL', READ_ALL, '3', ...this.keys])) as [
      string[],
      string[],
      string | null,
    ];
    const version = new Map<string, string>();
    for (let i = 0; i < versions.length; i += 2)
      version.set(versions[i] as string, versions[i + 1] as string);
    for (let i = 0; i < records.length; i += 2) {
      const key = records[i] as string;
      this.store(key, records[i + 1] as string, version.get(key) ?? null);
    }
    this.reserved = Number(reserved ?? 0);
  }

  private store(id: string, record: string | null, version: string | null): void {
    if (record) this.map.set(id, JSON.parse(record) as JobRecord);
    else this.map.delete(id);
    this.versions.set(id, Number(version ?? 0));
  }

  reservedSeconds(): number {
    return this.reserved;
  }

  records(): Iterable<JobRecord> {
    return this.map.values();
  }

  /** Writes `entry` if the job's version is still the one this process read. */
  private async write(entry: JournalEntry, budget: number | undefined): Promise<'ok' | ClaimRefusal> {
    const scratch = new Map<string, JobRecord>();
    const current = this.map.get(entry.id);
    if (current) scratch.set(entry.id, { ...current });
    const delta = applyEntry(scratch, { ...entry, at: entry.at ?? Date.now() });
    const record = scratch.get(entry.id) as JobRecord;
    const [outcome, version, extra] = (await this.call([
      'EVAL',
      WRITE,
      '3',
      ...this.keys,
      entry.id,
      String(this.versions.get(entry.id) ?? 0),
      JSON.stringify(record),
      String(delta),
      budget === undefined ? '' : String(budget),
    ])) as [string, string, string];
    if (outcome === 'taken') {
      this.store(entry.id, extra || null, version);
      return 'taken';
    }
    if (outcome === 'budget') {
      this.reserved = Number(extra);
      return 'budget';
    }
    this.map.set(entry.id, record);
    this.versions.set(entry.id, Number(version));
    this.reserved = Number(extra);
    return 'ok';
  }

  async claim(entry: JournalEntry, maxReservedSeconds?: number): Promise<ClaimRefusal | undefined> {
    const outcome = await this.write(entry, maxReservedSeconds);
    return outcome === 'ok' ? undefined : outcome;
  }

  async append(entry: JournalEntry): Promise<void> {
    // A fleet cannot tell a runner that died waiting for its turn from one still waiting, so a
    // claimed job stays in doubt in Redis until its answer is recorded: the mark adds nothing.
    if (entry.e === 'sending') return;
    // Another process may have written the job meanwhile (two runners saving the same task's
    // files): read it again and apply the entry over what it wrote.
    for (let attempt = 0; attempt < 5; attempt++) {
      if ((await this.write(entry, undefined)) === 'ok') return;
    }
    throw new JobJournalError(`the record of job ${entry.id} kept changing under this run; it stopped`);
  }

  async close(): Promise<void> {
    // The connection is the caller's.
  }
}

const READ_ONE = `return {redis.call('HGET', KEYS[1], ARGV[1]), redis.call('HGET', KEYS[2], ARGV[1]), redis.call('GET', KEYS[3])}`;
const READ_ALL = `return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('GET', KEYS[3])}`;
