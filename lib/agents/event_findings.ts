/**
 * What `doctor` says about the continuity events: a SessionStart matcher that misses
 * `clear` or `compact`, an older registration (SessionStart only) that `install` updates, a hook
 * that may not read the agent's transcripts, a hook registered both in settings and by the plugin,
 * and a SessionEnd that only the plugin registers, whose `timeout` cannot raise Claude Code's
 * 1.5 s SessionEnd budget. Pure but for {@link largestTranscript}; lib/agents/doctor.ts calls these
 * with what it read back.
 * @module
 */

import type { Finding } from "./finding.ts";
import { coveredSources, requiredSources } from "./matcher.ts";
import { SESSION_END_DEFAULT_BUDGET_MS, SESSION_END_TIMEOUT } from "./targets.ts";

/**
 * The transcript size up to which a SessionEnd draft fits Claude Code's default 1.5 s budget with
 * a margin: the draft's goal is a 10 MB transcript in under 1.5 s on the bench machine,
 * and the budget is shared with every other SessionEnd hook and slower machines.
 */
export const DRAFT_FITS_BYTES = 5 * 1024 * 1024;

/** A size in MB with one decimal, for messages. */
function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A SessionStart matcher that misses `clear` or `compact` (a fix: install writes the right one),
 * or that lets more through than the hook restores from (said, not a fix).
 */
export function matcherFindings(
  agent: string,
  matcher: string,
  command: string,
  where: string,
  fix: string,
): Finding[] {
  const covered = coveredSources(agent, matcher);
  const missing = requiredSources(agent).filter((s) => !covered.includes(s));
  if (missing.length > 0) {
    return [{
      status: "fix",
      text: `${where} does not run on ${missing.join(" or ")} (${
        missing.includes("compact") ? "no card after compaction" : "no restore after /clear"
      }) — fix: ${fix} (updates it in place)`,
    }];
  }
  const startup = /(^|\s)--source[ =]\S*startup/.test(command);
  const extra = covered.filter((s) =>
    !requiredSources(agent).includes(s) && !(s === "startup" && startup)
  );
  if (extra.length > 0) {
    return [{
      status: "info",
      text: `${where} also runs on ${extra.join(" and ")} (the hook restores there only with ` +
        `--source; each run is one quick deno start)`,
    }];
  }
  return startup
    ? [{ status: "info", text: `${where} also restores at startup (install --startup)` }]
    : [];
}

/**
 * An older registration: a settings file of ours that registers some of the agent's events but
 * not all (an install before SessionEnd and PreCompact: SessionStart `clear` only).
 */
export function olderRegistrationFinding(path: string, missing: string[], fix: string): Finding {
  // Without SessionEnd no `/clear` says which session it ends, so the restore cannot tell two
  // sessions of this project apart (docs/HOOK.md, "Two sessions in one project").
  const why = missing.includes("SessionEnd")
    ? "; without SessionEnd a session that ends leaves no draft, and a /clear in one window " +
      "may restore another window's handover"
    : "";
  return {
    status: "fix",
    text: `${path} has an older registration (no ${missing.join(", no ")}${why}) — run ` +
      `install to update: ${fix}`,
  };
}

/** A hook that reads transcripts (SessionEnd, PreCompact) but is not granted the agent's folder. */
export function transcriptGrantFinding(
  read: string[] | undefined,
  folder: string | undefined,
  where: string,
  fix: string,
): Finding[] {
  if (read === undefined || folder === undefined) return [];
  const covered = read.some((g) =>
    folder === g || folder.startsWith(g.endsWith("/") ? g : `${g}/`)
  );
  return covered ? [] : [{
    status: "fix",
    text: `${where} may not read the transcripts in ${folder} (granted: read ` +
      `${read.join(",") || "nothing"}), so it cannot draft or save from them — fix: ${fix}`,
  }];
}

/** The same event registered in a settings file and by the enabled plugin: both run. */
export function twiceFinding(event: string, plugin: string, paths: string[], fix: string): Finding {
  return {
    status: "fix",
    text: `${event} is registered in ${paths.join(" and ")} and by the plugin ${plugin}: Claude ` +
      `Code runs both — fix: keep one (session.ts uninstall${fix}, or disable the plugin)`,
  };
}

/**
 * SessionEnd registered only by the plugin: its hooks.json `timeout` cannot raise Claude Code's
 * shared 1.5 s SessionEnd budget, so a draft from a big transcript may be cut off. A fix when this
 * project's transcripts are big enough for that (`largest` bytes), else said as information.
 */
export function pluginSessionEndFinding(plugin: string, largest: number | undefined): Finding {
  const budget = `${SESSION_END_DEFAULT_BUDGET_MS / 1000} s`;
  const why =
    `a plugin's hooks.json timeout cannot raise Claude Code's ${budget} SessionEnd budget`;
  if (largest !== undefined && largest > DRAFT_FITS_BYTES) {
    return {
      status: "fix",
      text: `SessionEnd runs only from the plugin ${plugin}, and ${why}: this project's ` +
        `transcripts reach ${mb(largest)}, and a draft from one over ${mb(DRAFT_FITS_BYTES)} may ` +
        `not finish in ${budget} — fix: session.ts install (a settings timeout of ` +
        `${SESSION_END_TIMEOUT} s raises the budget) and disable the plugin`,
    };
  }
  return {
    status: "ok",
    text: `SessionEnd hook from the plugin ${plugin} (${why}; drafts from transcripts up to ` +
      `${mb(DRAFT_FITS_BYTES)} fit it${
        largest === undefined ? "" : `, and this project's largest is ${mb(largest)}`
      })`,
  };
}

/** The size of the biggest `.jsonl` in `folder` (stat only, nothing read); undefined when none. */
export function largestTranscript(folder: string | undefined): number | undefined {
  if (folder === undefined) return undefined;
  let largest: number | undefined;
  try {
    for (const e of Deno.readDirSync(folder)) {
      if (!e.isFile || !e.name.endsWith(".jsonl")) continue;
      try {
        const size = Deno.statSync(`${folder}/${e.name}`).size;
        if (largest === undefined || size > largest) largest = size;
      } catch { /* vanished */ }
    }
  } catch { /* no transcripts for this project */ }
  return largest;
}
