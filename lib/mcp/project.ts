/**
 * Which project an MCP request is about. `--dir DIR` given to `mcp` pins it. Otherwise the
 * client's roots (MCP `roots/list`), when it offers them: the first `file:` root holding the
 * server's working directory, else the first `file:` root; without roots, the working directory.
 * From that start the CLI's root rule finds the store (lib/store/store.ts `findStore`), so the
 * server and a CLI run from the same place serve the same store. No tool argument names a path:
 * the tools take names, words and sections only, and the CLI confines names to the store.
 * @module
 */

import { fileURLToPath } from "node:url";
import { absolute, isDir } from "../fs/path.ts";
import { findStore, type Store } from "../store/store.ts";

/** One root as a client lists it. */
export interface Root {
  uri: string;
  name?: string;
}

/** Where requests start from, and why. */
export interface Place {
  /** The directory the root rule starts from. */
  start: string;
  /** `dir`: `--dir`; `roots`: the client's roots; `cwd`: the server's working directory. */
  from: "dir" | "roots" | "cwd";
}

/** The directory a `file:` URI names, or undefined for any other URI or a malformed one. */
export function rootDir(uri: string): string | undefined {
  if (!/^file:/i.test(uri)) return undefined;
  try {
    return fileURLToPath(uri).replaceAll("\\", "/").replace(/(.)\/+$/, "$1");
  } catch {
    return undefined;
  }
}

/** Whether `dir` is `base` or inside it (paths already absolute, `/`-separated). */
function within(dir: string, base: string): boolean {
  return dir === base || dir.startsWith(base.endsWith("/") ? base : `${base}/`);
}

/**
 * The place requests start from (pure but for the existence check of roots): `dir` first; then
 * the roots (the first holding `cwd`, else the first that is a directory); else `cwd`.
 */
export function placeOf(o: { dir?: string; roots?: Root[]; cwd: string }): Place {
  if (o.dir !== undefined) return { start: absolute(o.dir, o.cwd), from: "dir" };
  const dirs = (o.roots ?? []).map((r) => rootDir(r.uri)).filter((d) => d !== undefined);
  const holding = dirs.find((d) => within(o.cwd, d));
  const first = holding ?? dirs.find((d) => isDir(d));
  return first === undefined ? { start: o.cwd, from: "cwd" } : { start: first, from: "roots" };
}

/**
 * The environment a CLI run sees from `place`: as the server's, except that `CLAUDE_PROJECT_DIR`
 * (which would start the root rule elsewhere) is hidden when the place came from `--dir` or the
 * client's roots: they name the project, not the variable a client happens to pass.
 */
export function placeEnv(
  place: Place,
  env: (name: string) => string | undefined,
): (name: string) => string | undefined {
  if (place.from === "cwd") return env;
  return (name) => name === "CLAUDE_PROJECT_DIR" ? undefined : env(name);
}

/** The store of `place`, by the CLI's root rule. */
export function storeOf(place: Place, env: (name: string) => string | undefined): Store {
  return findStore({
    dir: place.from === "dir" ? place.start : undefined,
    projectDir: placeEnv(place, env)("CLAUDE_PROJECT_DIR"),
    cwd: place.start,
  });
}

/** `--dir` as the CLI's runs get it: only when the place is pinned by it. */
export function dirArgs(place: Place): string[] {
  return place.from === "dir" ? ["--dir", place.start] : [];
}
