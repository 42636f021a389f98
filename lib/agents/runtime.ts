/**
 * The Deno the CLI and the hooks run on: the oldest supported ({@link MIN_DENO}), and where
 * bin/with-deno finds it, the way it looks (PATH, `$DENO_INSTALL/bin`, `~/.deno/bin`). Pure; the
 * caller hands in the lookups.
 * @module
 */

import type { Finding } from "./finding.ts";

/**
 * The oldest Deno the CLI and the hooks run on (tests/deno_versions_test.ts runs them under it;
 * docs/DECISIONS.md, "Any Deno 2").
 */
export const MIN_DENO = "2.0.0";

/** The numeric parts of a version (`2.9.6`, `2.1.0-rc.1` → 2, 1, 0); missing parts are 0. */
function versionParts(version: string): number[] {
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version);
  return m ? [m[1], m[2], m[3]].map((p) => Number(p ?? 0)) : [0, 0, 0];
}

/** Whether `version` is older than `min`, both `major.minor.patch`. */
export function olderThan(version: string, min: string): boolean {
  const a = versionParts(version);
  const b = versionParts(min);
  const i = a.findIndex((n, k) => n !== b[k]);
  return i >= 0 && a[i] < b[i];
}

/** The running Deno, and what to look it up with. */
export interface DenoPlace {
  /** Its executable (`Deno.execPath()`: symlinks resolved). */
  path: string;
  /** Environment lookup: PATH, DENO_INSTALL, HOME, USERPROFILE. */
  env: (name: string) => string | undefined;
  /** Windows: `;` separates PATH, `deno.exe` is the name, and paths compare without case. */
  windows?: boolean;
  /** The file a path leads to (symlinks resolved), undefined when there is none. */
  realPath: (path: string) => string | undefined;
}

/** Where the launcher would find the Deno at `place`: the candidate path, and which rule. */
export interface DenoSource {
  /** The candidate the launcher runs (e.g. `/usr/bin/deno`, a symlink to `place.path`). */
  path: string;
  /** "on PATH", "in $DENO_INSTALL/bin" or "in ~/.deno/bin"; undefined when none leads there. */
  rule?: string;
}

/**
 * Where bin/with-deno finds the Deno at `place`, looking where it looks and in its order: each
 * PATH folder, then `$DENO_INSTALL/bin`, then `~/.deno/bin` (and `%USERPROFILE%\.deno\bin`).
 */
export function denoSource(place: DenoPlace): DenoSource {
  const norm = (p: string) => {
    const s = p.replaceAll("\\", "/").replace(/\/+$/, "");
    return place.windows ? s.toLowerCase() : s;
  };
  const names = place.windows ? ["deno.exe", "deno"] : ["deno"];
  const target = norm(place.path);
  const path = (place.env("PATH") ?? "").split(place.windows ? ";" : ":").filter(Boolean);
  const install = place.env("DENO_INSTALL");
  const homes = [place.env("HOME"), place.env("USERPROFILE")].filter((h) => h);
  const dirs: [string, string][] = [
    ...path.map((d): [string, string] => [d, "on PATH"]),
    ...(install ? [[`${install}/bin`, "in $DENO_INSTALL/bin"] as [string, string]] : []),
    ...homes.map((h): [string, string] => [`${h}/.deno/bin`, "in ~/.deno/bin"]),
  ];
  for (const [dir, rule] of dirs) {
    for (const name of names) {
      const candidate = `${dir.replace(/[\\/]+$/, "")}/${name}`;
      const real = place.realPath(candidate);
      if (real !== undefined && norm(real) === target) return { path: candidate, rule };
    }
  }
  return { path: place.path };
}

/**
 * Deno's version and where it was found ({@link denoSource}), and below {@link MIN_DENO} how to
 * upgrade.
 */
export function denoFinding(version: string, place?: DenoPlace): Finding {
  const found = place && denoSource(place);
  const where = found === undefined
    ? ""
    : ` at ${found.path} (${
      found.rule ?? "not where bin/with-deno looks: PATH, $DENO_INSTALL/bin, ~/.deno/bin"
    })`;
  return olderThan(version, MIN_DENO)
    ? {
      status: "fix",
      text: `Deno ${version}${where} is older than ${MIN_DENO}, the oldest the CLI and the ` +
        `hooks run on — fix: upgrade Deno (npm install -g deno, or the official installer: ` +
        `curl -fsSL https://deno.land/install.sh | sh)`,
    }
    : { status: "ok", text: `Deno ${version}${where}` };
}
