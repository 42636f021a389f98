/**
 * redact.ts loaded on demand, for the write paths that must stay fast (`park`, `drop`, the
 * sweep `park` offers): the rules cost ~1.3 ms to load and compile, paid only once there is text
 * to redact. A computed specifier, so the module graph built at start-up does not include it.
 * @module
 */

/** The redaction module, loaded on first use. */
export function loadRedaction(): Promise<typeof import("./redact.ts")> {
  return import(new URL("./redact.ts", import.meta.url).href);
}
