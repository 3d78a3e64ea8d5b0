/**
 * SIGINT (Ctrl+C), SIGTERM and SIGHUP (the terminal closed) during a command. The first signal aborts what is in flight
 * (a submission, a wait, a download, an upload) through one abort signal every request of the
 * run is given: a download removes its temporary file, a wait stops, and the command ends with
 * exit 130 (SIGINT) or 143 (SIGTERM), one message (one JSON document with `--json`), and the
 * command that finishes the job when there is one. Nothing is cancelled or sent again.
 */
import { CliError } from './exit-codes.js';

/** The signals a command handles: SIGHUP is the terminal or SSH session closing. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The exit status after each signal: 128 plus the signal's number, as shells report it. */
export const SIGNAL_EXIT: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** What the command is doing, so that a signal can say what it left behind. */
export interface Stage {
  /** What was stopped, what that leaves behind and what to do, for people. */
  message: string;
  /** The task concerned, when there is one. */
  taskId?: string | undefined;
  /** The command that finishes the job, when there is one. */
  resume?: string | undefined;
}

/** The signals of one run of the command, and what the command is doing when one arrives. */
export class Interrupt {
  private readonly controller = new AbortController();
  private received: StopSignal | undefined;
  private count = 0;
  private stage: Stage | undefined;
  private readonly notify: Array<(signal: StopSignal) => void> = [];
  private readonly notifyAgain: Array<() => void> = [];

  /**
   * Set by a command whose normal end is a signal (`mediagw mock`): it ends as it sees fit, and
   * the run waits for it.
   */
  commandHandlesSignals = false;

  /** Aborted by the first SIGINT or SIGTERM; every request of the run is given it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The signal that arrived, if one did. */
  get signalled(): StopSignal | undefined {
    return this.received;
  }

  /** Resolves when the first signal arrives. */
  arrived(): Promise<StopSignal> {
    if (this.received) return Promise.resolve(this.received);
    return new Promise((resolve) => this.notify.push(resolve));
  }

  /** Resolves when a second signal arrives: stop waiting for the command to tidy up. */
  arrivedAgain(): Promise<void> {
    if (this.count > 1) return Promise.resolve();
    return new Promise((resolve) => this.notifyAgain.push(resolve));
  }

  /** Says what the command is doing from now on. */
  during(stage: Stage | undefined): void {
    this.stage = stage;
  }

  /** Handles the signals until the returned function is called. */
  listen(): () => void {
    const handlers = (Object.keys(SIGNAL_EXIT) as StopSignal[]).map((signal) => {
      const handler = () => this.receive(signal);
      process.on(signal, handler);
      return () => process.removeListener(signal, handler);
    });
    return () => {
      for (const remove of handlers) remove();
    };
  }

  /** Records a signal (also for tests that call it directly). */
  receive(signal: StopSignal): void {
    this.count++;
    if (this.count > 1) {
      for (const resolve of this.notifyAgain.splice(0)) resolve();
      return;
    }
    this.received = signal;
    this.controller.abort(new Error(`stopped by ${signal}`));
    for (const resolve of this.notify.splice(0)) resolve(signal);
  }

  /** The error the command ends with after the signal: what was stopped, what is left, how to finish. */
  error(): CliError {
    const signal = this.received ?? 'SIGINT';
    const { message, taskId, resume } = this.stage ?? { message: `Stopped by ${signal}.` };
    const lines = [message];
    if (resume) lines.push(`Resume with: ${resume}`);
    return new CliError(lines.join('\n'), SIGNAL_EXIT[signal], {
      signal,
      ...(taskId ? { taskId } : {}),
      ...(resume ? { resume } : {}),
    });
  }
}
