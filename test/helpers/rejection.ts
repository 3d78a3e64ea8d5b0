/** The fields tests read from an SDK error. */
export type CaughtError = Error & {
  status?: number;
  code?: string;
  body?: unknown;
  requestId?: string;
  taskId?: string;
  headers: Record<string, string>;
  cause?: unknown;
  issues?: Array<{ path: string; message: string }>;
};

/** Awaits a promise that must reject, and returns what it rejected with. */
export async function rejection(promise: PromiseLike<unknown>): Promise<CaughtError> {
  try {
    await promise;
  } catch (error) {
    return error as CaughtError;
  }
  throw new Error('expected the promise to reject, but it resolved');
}
