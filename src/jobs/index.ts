/**
 * `mediagw/jobs`: thousands of generations from a manifest, resumable after any crash and
 * never sent twice. Each job is recorded in a journal (a local file, fsynced) before its
 * submission is sent; a rerun resumes where the last one stopped; a job sent without an answer
 * is `in_doubt` and is reconciled from its webhook event by `client_reference_id`. Outputs land
 * whole in one folder as `<id>.<ext>`. See docs/jobs.md.
 *
 * @example
 * import { MediaGateway } from 'mediagw';
 * import { runJobs } from 'mediagw/jobs';
 * const summary = await runJobs(new MediaGateway(), 'catalogue.jsonl', { journal: 'catalogue.journal', outputDir: 'out' });
 *
 * @module mediagw/jobs
 */
export { JobEvents } from './events.js';
export type { JobChange, RunJobsOptions } from './job-run.js';
export {
  type ClaimRefusal,
  FileJournal,
  JOB_STATES,
  type JobError,
  type JobJournal,
  JobJournalError,
  type JobRecord,
  type JobState,
  type JournalEntry,
} from './journal.js';
export {
  type BadLine,
  JOB_OPERATIONS,
  type JobInput,
  type JobOperation,
  type JobPlan,
  type JobSource,
  type ManifestLine,
  planJobs,
  type ReadJobsOptions,
  type ReservedSeconds,
  readJobs,
} from './manifest.js';
export { RedisJournal, type RedisJournalOptions } from './redis-journal.js';
export { RespConnection } from './resp.js';
export {
  type JournalStatus,
  ManifestError,
  type RunSummary,
  readJournal,
  runJobs,
} from './run.js';
