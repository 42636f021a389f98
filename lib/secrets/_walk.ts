/**
 * Internal: the copy of a JSON value that `redactDeep` makes (redact.ts), every string passed
 * through a function, object keys kept. Shared with lazy.ts, whose copy of a value with nothing
 * to redact must be the same copy.
 * @module
 */

/** A property descriptor as `Object.fromEntries` creates it. */
const DATA = (value: unknown): PropertyDescriptor => ({
  value,
  writable: true,
  enumerable: true,
  configurable: true,
});

/** `value` copied, each string in it replaced by `fn(string)` (arrays and plain objects walked). */
export function mapStrings<T>(value: T, fn: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return fn(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      // What `Object.fromEntries(Object.entries(v)…)` makes (own enumerable keys, in order, as
      // own data properties), without its arrays: `evidence` walks thousands of small objects.
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        const x = walk((v as Record<string, unknown>)[k]);
        if (k === "__proto__") Object.defineProperty(out, k, DATA(x));
        else out[k] = x;
      }
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
