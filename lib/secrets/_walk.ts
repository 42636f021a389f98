/**
 * Internal: the copy of a JSON value that `redactDeep` makes (redact.ts), every string passed
 * through a function, object keys kept. Shared with lazy.ts, whose copy of a value with nothing
 * to redact must be the same copy.
 * @module
 */

/** `value` copied, each string in it replaced by `fn(string)` (arrays and plain objects walked). */
export function mapStrings<T>(value: T, fn: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return fn(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
