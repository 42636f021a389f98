/**
 * Internal: the strings of a JSON value, walked the one way both redaction paths share (arrays and
 * plain objects, own enumerable keys in order): the copy `redactDeep` makes (redact.ts), every
 * string passed through a function, and the check lazy.ts makes first, which copies nothing.
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

/**
 * Whether `test` holds for some string in `value`, walked as {@link mapStrings} walks it; stops at
 * the first. Copies nothing: `evidence` checks thousands of strings, and a copy it would throw
 * away when nothing may hold a secret cost about as much as the check (docs/PERFORMANCE.md).
 */
export function someString(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === "string") return test(value);
  if (Array.isArray(value)) {
    for (const v of value) if (someString(v, test)) return true;
    return false;
  }
  if (value !== null && typeof value === "object") {
    const o = value as Record<string, unknown>;
    for (const k of Object.keys(o)) if (someString(o[k], test)) return true;
  }
  return false;
}
