import type { FetchFailureCode } from '@leadfinder/wire';

/** A page download: decoded body ready for extraction, or a classified failure. */
export type Download =
  | { ok: true; finalUrl: string; status: number; contentType: string; body: string }
  | { ok: false; code: FetchFailureCode; reason: string; status?: number };

/** `status`: the HTTP status of the answer that failed it, when one came (for the fetch span). */
export function failure(code: FetchFailureCode, reason: string, status?: number): Download {
  return status === undefined ? { ok: false, code, reason } : { ok: false, code, reason, status };
}

/** Race a promise against a signal (the promise keeps running; only this caller stops waiting). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
