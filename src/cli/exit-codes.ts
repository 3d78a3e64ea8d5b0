/**
 * The exit codes of the `mediagw` command, and which error leads to which. Documented in
 * docs/cli.md; scripts rely on them, so they never change meaning.
 */
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIError,
  MediaGatewayError,
  TaskFailedError,
  WaitTimeoutError,
} from '../index.js';

/** What each exit status means. */
export const EXIT = {
  /** The command did what was asked. */
  ok: 0,
  /** A usage error (unknown flag, missing argument, unreadable file) or a request the SDK refused. */
  usage: 1,
  /** The gateway refused the request (any non-2xx answer) or could not be reached. */
  refused: 2,
  /** The task ended failed. */
  taskFailed: 3,
  /** A wait's deadline passed; the task goes on. */
  deadline: 4,
  /** A billable submission was sent and its outcome is unknown. */
  ambiguous: 5,
  /** Ctrl+C (SIGINT) stopped the command; nothing was cancelled. */
  interrupted: 130,
  /** SIGTERM stopped the command; nothing was cancelled. */
  terminated: 143,
} as const;

/**
 * A failure the command reports itself: a message for people and the exit status. Throw it
 * from a command for usage errors the argument parser cannot see.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    /** The exit status. @default 1 */
    readonly exitCode: number = EXIT.usage,
    /** Fields added to the `--json` error document, e.g. `taskId` and `resume`. */
    readonly details: Record<string, unknown> = {},
    /** The SDK's error this one tells more of: its type and fields are reported as its own. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** The exit status for an error thrown by a command. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof AmbiguousSubmissionError) return EXIT.ambiguous;
  if (error instanceof TaskFailedError) return EXIT.taskFailed;
  if (error instanceof WaitTimeoutError) return EXIT.deadline;
  if (error instanceof APIError || error instanceof APIConnectionError) return EXIT.refused;
  if (error instanceof MediaGatewayError) return EXIT.usage;
  return EXIT.usage;
}

/** A short machine-readable name of the error, for `--json` output. */
export function errorType(error: unknown): string {
  if (error instanceof Error) return error.name;
  return 'Error';
}
