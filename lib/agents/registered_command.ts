/**
 * A registered hook command read back, as `doctor` judges it on its own: its words as a POSIX shell
 * unquotes them, the script it runs, what it is granted, and what is wrong with it whatever the
 * settings file around it says (an internal V8 flag, Deno run by name instead of through the
 * launcher, a grant that misses this store or its own lib/).
 * @module
 */

import { RESTORE_SCRIPT } from "./targets.ts";
import { grantPath } from "./command.ts";
import type { Finding } from "./finding.ts";
import type { Store } from "../store/store.ts";

/** Splits a shell command into words the way a POSIX shell unquotes them (variables kept). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      word = (word ?? "") + command.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? command.length : end;
    } else if (c === '"') {
      word = word ?? "";
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === "\\" && /["\\`$]/.test(command[i + 1] ?? "")) i++;
        word += command[i];
      }
    } else if (c === "\\") {
      word = (word ?? "") + (command[++i] ?? "");
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The script path inside a hook command (the word naming session_restore.ts), unquoted. */
export function scriptOf(command: string): string | undefined {
  return shellWords(command).find((w) => w.includes(RESTORE_SCRIPT));
}

/** Whether a registered hook command limits reads to paths that leave out the hook's lib/. */
export function lacksCodeRead(command: string): boolean {
  const word = shellWords(command).find((w) => w.startsWith("--allow-read="));
  if (word === undefined) return false;
  return !word.slice("--allow-read=".length).split(",").some((path) =>
    /[\\/]lib[\\/]?$/.test(path)
  );
}

/**
 * A hook registered with a `--v8-flags` word (an older install): Deno refuses to start on a V8
 * flag its engine lacks, so one Deno upgrade would stop that hook before it runs. `install`
 * rewrites the registration in place without it.
 */
export function v8FlagsFinding(command: string, where: string, fix: string): Finding[] {
  const flags = shellWords(command).find((w) => w.startsWith("--v8-flags"));
  if (flags === undefined) return [];
  return [{
    status: "fix",
    text: `${where} runs with ${flags}, an internal V8 setting: a Deno whose V8 lacks one of ` +
      `these flags refuses to start the hook — fix: ${fix} (rewrites it in place)`,
  }];
}

/**
 * A hook registered as a bare `deno run …` (an install before the launcher): an agent whose PATH
 * lacks Deno (it sits in ~/.deno/bin, or nowhere) fails it on every event, with no word of why.
 * `install` rewrites the registration in place through bin/with-deno.
 */
export function launcherFinding(command: string, where: string, fix: string): Finding[] {
  const [sh, launcher] = shellWords(command);
  if (sh === "sh" && /(^|[\\/])bin[\\/]with-deno$/.test(launcher ?? "")) return [];
  return [{
    status: "fix",
    text: `${where} runs Deno by name, not through bin/with-deno: where the agent's PATH has no ` +
      `Deno (e.g. only ~/.deno/bin) every run fails with no word of why — fix: ${fix} ` +
      `(rewrites it in place)`,
  }];
}

/** The paths a hook command's `--allow-<name>=` list grants; undefined for an unlimited grant. */
export function grantedPaths(command: string, name: "read" | "write"): string[] | undefined {
  const words = shellWords(command);
  if (words.includes(`--allow-${name}`) || words.includes("-A")) return undefined;
  const word = words.find((w) => w.startsWith(`--allow-${name}=`));
  return word === undefined ? [] : word.slice(`--allow-${name}=`.length).split(",");
}

function covers(grants: string[], path: string): boolean {
  return grants.some((g) => path === g || path.startsWith(g.endsWith("/") ? g : `${g}/`));
}

/**
 * What a registered hook may read and write, where that is not the plain grant: unlimited (a
 * hook for every project), widened past a path with a comma, or not covering this store.
 */
export function grantFindings(command: string, store: Store, where: string): Finding[] {
  const read = grantedPaths(command, "read");
  const write = grantedPaths(command, "write");
  if (read === undefined || write === undefined) {
    return [{
      status: "info",
      text: `${where} may read and write any path: it serves every project, and the store the ` +
        `root rule finds may sit above the launch directory, which no grant fixed ahead can name ` +
        `(it still refuses a store that leads outside its project)`,
    }];
  }
  const out: Finding[] = [];
  const script = scriptOf(command);
  for (const path of [store.root, ...(script ? [script.replace(/[\\/][^\\/]*$/, "/lib")] : [])]) {
    if (!path.includes(",")) continue;
    out.push({
      status: "info",
      text: `${path} holds a comma, which Deno's permission lists cannot hold (it splits them at ` +
        `commas, with no escape): ${where} is granted ${grantPath(path)} instead`,
    });
  }
  // A linked worktree made after `install` is outside a project hook's grant.
  const worktree = (store.home ?? store.root) !== store.root && !covers(read, store.root);
  if (worktree || !covers(read, store.dir) || !covers(write, store.dir)) {
    out.push({
      status: "fix",
      text: `${where} may not ${worktree ? "read this worktree, or " : ""}read and write the ` +
        `store ${store.dir} (granted: read ${read.join(",") || "nothing"}, write ` +
        `${write.join(",") || "nothing"}) — fix: session.ts install --dir ${store.root} with the ` +
        `same scope${worktree ? ", or --user, which serves every worktree" : ""}`,
    });
  }
  return out;
}
