/**
 * Path arithmetic on the paths transcripts carry: POSIX or Windows, absolute or relative to the
 * session's working directory, compared with the project root; and the name of Claude Code's
 * folder of a project's transcripts. Pure: nothing touches the disk, so a transcript from another
 * machine reads the same.
 * @module
 */

/** Whether `path` is absolute: `/…`, `C:\…` or `C:/…`, or a UNC `\\server\…`. */
export function isAbsolute(path: string): boolean {
  return /^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(path);
}

/** `path` relative to `root` when inside it; undefined when outside. Both absolute. */
export function relativeTo(path: string, root: string): string | undefined {
  const r = root.replace(/[\\/]+$/, "");
  if (path === r) return ".";
  if (r === "") return path.replace(/^\/+/, "");
  if (path.startsWith(r + "/") || path.startsWith(r + "\\")) return path.slice(r.length + 1);
  return undefined;
}

/** Resolves `.`/`..` and duplicate separators of an absolute path. */
export function normalizePath(path: string): string {
  const win = /^[A-Za-z]:[\\/]/.test(path);
  const parts = path.replace(/\\/g, "/").split("/");
  const out: string[] = [];
  for (const p of parts.slice(win ? 1 : 0)) {
    if (p === "" || p === ".") continue;
    if (p === "..") out.pop();
    else out.push(p);
  }
  return win ? `${parts[0]}/${out.join("/")}` : "/" + out.join("/");
}

/** `path` made absolute against `base` (when relative) and normalized. */
export function resolvePath(path: string, base: string): string {
  return normalizePath(isAbsolute(path) ? path : `${base}/${path}`);
}

/** Claude Code's folder name for a project directory: each non-alphanumeric char becomes `-`. */
export function encodeProjectDir(dir: string): string {
  return dir.replace(/[^A-Za-z0-9]/g, "-");
}

/**
 * Claude Code's folder of transcripts for a project root. Here, with the path rules, rather than in
 * locate.ts, which reads transcripts: `list` needs only this, not the reader.
 */
export function projectFolder(inputs: { root: string; home?: string; configDir?: string }) {
  const base = inputs.configDir ?? (inputs.home ? `${inputs.home}/.claude` : undefined);
  return base ? `${base}/projects/${encodeProjectDir(inputs.root)}` : undefined;
}
