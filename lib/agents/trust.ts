/**
 * What `doctor --agent codex|gemini` checks beyond the registration: whether the agent will run
 * the hook at all (Codex's feature flag and hook trust, Gemini's and Qwen Code's folder trust). Read-only: these
 * files belong to the agents, and trust is the user's to give in the agent itself.
 * @module
 */

import type { Finding } from "./finding.ts";
import {} from "./targets.ts";
import { codexHome, geminiHome, qwenHome } from "./homes.ts";
import { readIfExists } from "./registration.ts";
import { join, parentDir } from "../fs/path.ts";

/** The lines of TOML table `[name]` (up to the next table header), without comments. */
export function tomlTable(text: string, name: string): string[] {
  const out: string[] = [];
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    const header = /^\[([^\[\]]+)\]$/.exec(line);
    if (header) inside = header[1].trim() === name;
    else if (inside && line) out.push(line);
  }
  return out;
}

/** True when `[features]` turns hooks off (`hooks = false`, or the old `codex_hooks = false`). */
export function codexHooksDisabled(configToml: string): boolean {
  return tomlTable(configToml, "features").some((l) => /^(codex_)?hooks\s*=\s*false$/.test(l));
}

/**
 * True when Codex recorded trust for a hook of `event` (its snake_case name, default
 * `session_start`) of the hooks file at `hooksPath`.
 */
export function codexTrustRecorded(
  configToml: string,
  hooksPath: string,
  event = "session_start",
): boolean {
  return configToml.includes(`[hooks.state."${hooksPath}:${event}:`);
}

/** The events `install --agent codex` registers, as Codex names them in its trust records. */
const CODEX_EVENTS = ["session_start", "session_end", "pre_compact"];

/** True when Codex trusts the project at `root` (`[projects."<root>"] trust_level = "trusted"`). */
export function codexProjectTrusted(configToml: string, root: string): boolean {
  return tomlTable(configToml, `projects."${root}"`).some((l) =>
    /^trust_level\s*=\s*"trusted"$/.test(l)
  );
}

/** Codex: the feature flag, the project's trust, the hook's trust. */
export async function codexFindings(
  root: string,
  env: (name: string) => string | undefined,
  hooksPaths: string[],
): Promise<Finding[]> {
  const userConfig = join(codexHome(env), "config.toml");
  const config = (await readIfExists(userConfig).catch(() => undefined)) ?? "";
  const project = (await readIfExists(join(root, ".codex", "config.toml")).catch(() => "")) ?? "";
  const out: Finding[] = [];
  if (codexHooksDisabled(config) || codexHooksDisabled(project)) {
    out.push({
      status: "fix",
      text: "Codex hooks are turned off ([features] hooks = false) — fix: remove that line",
    });
  }
  if (hooksPaths.some((p) => p.startsWith(`${root}/`)) && !codexProjectTrusted(config, root)) {
    out.push({
      status: "info",
      text: `Codex loads ${root}/.codex/ only in a trusted project: trust it when Codex asks`,
    });
  }
  for (const p of hooksPaths) {
    const untrusted = CODEX_EVENTS.filter((e) => !codexTrustRecorded(config, p, e));
    out.push(
      untrusted.length === 0
        ? { status: "ok", text: `Codex has a trust record for the hooks in ${p}` }
        : {
          status: "info",
          text: `Codex runs the hooks in ${p} (${untrusted.join(", ")}) only once you trust ` +
            'them: start codex and choose "Trust all and continue" (or review them in /hooks)',
        },
    );
  }
  return out;
}

/**
 * True when the trusted-folders file at `path` (Gemini CLI's format, which Qwen Code shares)
 * trusts `root`: TRUST_FOLDER trusts that folder and below; TRUST_PARENT the folder's parent and
 * below.
 */
async function trustedIn(path: string, root: string): Promise<boolean> {
  let trusted: Record<string, unknown> = {};
  try {
    trusted = JSON.parse((await readIfExists(path)) ?? "{}");
  } catch { /* unreadable: treated as no record */ }
  return Object.entries(trusted).some(([dir, level]) => {
    const top = level === "TRUST_PARENT" ? parentDir(dir) : level === "TRUST_FOLDER" ? dir : "";
    return top !== undefined && top !== "" && (root === top || root.startsWith(`${top}/`));
  });
}

/** Gemini: project hooks run only in a trusted folder. */
export async function geminiFindings(
  root: string,
  env: (name: string) => string | undefined,
  projectInstalled: boolean,
): Promise<Finding[]> {
  if (!projectInstalled) return [];
  return [
    (await trustedIn(join(geminiHome(env), "trustedFolders.json"), root))
      ? { status: "ok", text: `Gemini trusts ${root}` }
      : {
        status: "info",
        text: `Gemini runs project hooks only in a trusted folder: trust ${root} when Gemini asks`,
      },
  ];
}

/**
 * Qwen Code: project hooks run only in a trusted folder, when folder trust is on
 * (`security.folderTrust.enabled` in its user settings; off by default).
 */
export async function qwenFindings(
  root: string,
  env: (name: string) => string | undefined,
  projectInstalled: boolean,
): Promise<Finding[]> {
  if (!projectInstalled) return [];
  let settings: { security?: { folderTrust?: { enabled?: unknown } } } = {};
  try {
    settings = JSON.parse((await readIfExists(join(qwenHome(env), "settings.json"))) ?? "{}");
  } catch { /* unreadable (or with comments): treated as the default, trust off */ }
  if (settings?.security?.folderTrust?.enabled !== true) return [];
  return [
    (await trustedIn(join(qwenHome(env), "trustedFolders.json"), root))
      ? { status: "ok", text: `Qwen Code trusts ${root}` }
      : {
        status: "fix",
        text: `Qwen Code's folder trust is on and ${root} is not trusted: its project hooks ` +
          `do not run — fix: trust the folder in Qwen Code (/trust), or install --user`,
      },
  ];
}
