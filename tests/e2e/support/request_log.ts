/**
 * The request log a loopback stand-in keeps: every request it recorded, and a wait for the first
 * one (from an index on) that matches, so a test can act and then await the model call it causes.
 * @module
 */

/** Options of {@link RequestLog.waitFor}. */
export interface WaitOptions {
  /** Only requests recorded at or after this index count (default 0). */
  since?: number;
  /** Reject after this long (default 60 s). */
  timeoutMs?: number;
}

/** Recorded requests, oldest first, with a wait for the next matching one. */
export interface RequestLog<R> {
  requests: R[];
  /** Records a request and wakes the waits it satisfies. */
  record: (request: R) => void;
  /** Resolves with the first request from `since` on for which `predicate` holds. */
  waitFor: (predicate: (r: R) => boolean, options?: WaitOptions) => Promise<R>;
}

/** A new, empty request log. */
export function requestLog<R>(): RequestLog<R> {
  const requests: R[] = [];
  const waiters: { since: number; predicate: (r: R) => boolean; resolve: (r: R) => void }[] = [];
  return {
    requests,
    record: (request) => {
      requests.push(request);
      const index = requests.length - 1;
      for (const w of [...waiters]) {
        if (index >= w.since && w.predicate(request)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(request);
        }
      }
    },
    waitFor: (predicate, options = {}) => {
      const since = options.since ?? 0;
      const found = requests.slice(since).find(predicate);
      if (found) return Promise.resolve(found);
      const timeoutMs = options.timeoutMs ?? 60_000;
      return new Promise((resolve, reject) => {
        const w = {
          since,
          predicate,
          resolve: (r: R) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`stand-in: no matching request within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(w);
      });
    },
  };
}
