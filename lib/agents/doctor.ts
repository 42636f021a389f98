/**
 * What `doctor` finds: Deno's version and where it was found (lib/agents/runtime.ts), each
 * registration of the hook for every event (present once, pointing at a script that exists, run
 * through the launcher, reading its own lib/, granted this store and, for SessionEnd and
 * PreCompact, the agent's transcripts; lib/agents/event_findings.ts for the matcher, older
 * registrations, the plugin and its SessionEnd budget), the store and its LATEST, the gitignore,
 * and for Codex and Gemini whether they will run the hook (lib/agents/trust.ts). Read-only;
 * lib/cli/doctor.ts prints the findings. What one registered command says of itself (its words,
 * script and grants) is lib/agents/registered_command.ts.
 * @module
 */

import {
  type AgentSpec,
  claudeTranscripts,
  eventOf,
  type HookTarget,
  type Scope,
} from "./targets.ts";
import { userSettingsProblem } from "./homes.ts";
import {
  largestTranscript,
  matcherFindings,
  olderRegistrationFinding,
  pluginSessionEndFinding,
  transcriptGrantFinding,
  twiceFinding,
} from "./event_findings.ts";
import { encodeProjectDir } from "../transcript/paths.ts";
import type { Finding } from "./finding.ts";
import { codexFindings, geminiFindings, qwenFindings } from "./trust.ts";
import { readIfExists, stateIgnored } from "./registration.ts";
import { findHooks, type FoundHook, SettingsError } from "./settings.ts";
import { docPath, isSafeSlug, type Store } from "../store/store.ts";
import { readLatest } from "../store/latest.ts";
import { exists } from "../fs/path.ts";
import { denoFinding } from "./runtime.ts";
import {
  grantedPaths,
  grantFindings,
  lacksCodeRead,
  launcherFinding,
  scriptOf,
  v8FlagsFinding,
} from "./registered_command.ts";

/** Environment lookup (HOME, the agents' config-dir overrides). */
type Env = (name: string) => string | undefined;

/**
 * The enabled plugin named `session` (`session@<marketplace>` true in `enabledPlugins` of any
 * settings file), which brings its own hook. A `--plugin-dir` session leaves no trace to find.
 */
export async function enabledPlugin(
  env: Env,
  root: string,
  agent: AgentSpec,
): Promise<string | undefined> {
  for (const target of agent.targets) {
    for (const scope of agent.scopes) {
      const text = await readIfExists(target.settingsPath(scope, { root, env }))
        .catch(() => undefined);
      let value: unknown;
      try {
        value = JSON.parse(text ?? "null");
      } catch {
        continue; // reported by the registration check
      }
      const plugins = (value as { enabledPlugins?: unknown } | null)?.enabledPlugins;
      if (typeof plugins !== "object" || plugins === null) continue;
      const name = Object.entries(plugins).find(([k, v]) => k.startsWith("session@") && v === true);
      if (name) return name[0];
    }
  }
  return undefined;
}

/** One of our hooks as read from a settings file, with what the file system says of its script. */
interface RegisteredHook {
  target: HookTarget;
  scope: Scope;
  path: string;
  hook: FoundHook;
  /** Its script is a plain path that does not exist. */
  scriptMissing: boolean;
}

/** What the settings files hold, in reading order: a problem to report, or one of our hooks. */
type Read = Finding | RegisteredHook;

/**
 * Reads, event by event and scope by scope, every settings file `agent` may register the hook in
 * (the IO of the registration check): our hooks in each, whether each one's script exists, and the
 * files that cannot be read as settings (each said once: one file holds every event's entry).
 */
async function readRegistrations(env: Env, root: string, agent: AgentSpec): Promise<Read[]> {
  const out: Read[] = [];
  const broken = new Set<string>();
  for (const target of agent.targets) {
    for (const scope of agent.scopes) {
      const path = target.settingsPath(scope, { root, env });
      const problem = scope === "user" ? userSettingsProblem(agent.name, path, env) : undefined;
      if (problem) {
        if (target === agent.targets[0]) {
          out.push({ status: "info", text: `user settings not checked: ${problem}` });
        }
        continue;
      }
      const text = await readIfExists(path).catch(() => undefined);
      if (text === undefined) continue;
      let hooks: FoundHook[];
      try {
        hooks = findHooks(text, target);
      } catch (err) {
        if (!(err instanceof SettingsError)) throw err;
        if (!broken.has(path)) {
          out.push({ status: "fix", text: `${path}: ${err.message} — fix: repair the file` });
        }
        broken.add(path);
        continue;
      }
      for (const hook of hooks) {
        const script = scriptOf(hook.command);
        const scriptMissing = !!script && !script.includes("$") && !exists(script);
        out.push({ target, scope, path, hook, scriptMissing });
      }
    }
  }
  return out;
}

/** The command that registers `agent`'s hook, for `scope` when given. */
function installFix(agent: AgentSpec, scope?: Scope): string {
  const fix = `session.ts install${agent.name === "claude" ? "" : ` --agent ${agent.name}`}`;
  return `${fix}${scope === undefined || scope === "project" ? "" : ` --${scope}`}`;
}

/**
 * What one registered hook says (pure): its script is there, it reads its own lib/, it carries
 * this agent's `--agent`; then its matcher, engine flags, the launcher, grants and transcript reads.
 */
function hookFindings(agent: AgentSpec, r: RegisteredHook, store: Store, env: Env): Finding[] {
  const { hook, scope, path } = r;
  const event = eventOf(r.target);
  const start = event === "SessionStart";
  const scoped = installFix(agent, scope);
  const where = `${agent.name === "claude" && start ? "" : `${event} `}hook in ${path} (${scope}${
    start ? `, matcher "${hook.matcher}"` : ""
  })`;
  if (r.scriptMissing) {
    return [{
      status: "fix",
      text: `${where} runs ${scriptOf(hook.command)}, which does not exist — fix: ${scoped}` +
        ` from the current checkout`,
    }];
  }
  if (lacksCodeRead(hook.command)) {
    return [{
      status: "fix",
      text: `${where} cannot read the hook's own lib/ (an install before the hook loaded ` +
        `each event's modules from there: it would restore nothing) — fix: ${scoped}`,
    }];
  }
  if (agent.name !== "claude" && !hook.command.includes(`--agent ${agent.name}`)) {
    return [{
      status: "fix",
      text: `${where} lacks --agent ${agent.name} (its size budget and events) — fix: ` +
        installFix(agent),
    }];
  }
  const checks = [
    ...(start ? matcherFindings(agent.name, hook.matcher, hook.command, where, scoped) : []),
    ...v8FlagsFinding(hook.command, where, scoped),
    ...launcherFinding(hook.command, where, scoped),
  ];
  return [
    ...(checks.some((f) => f.status === "fix") ? [] : [{ status: "ok", text: where } as Finding]),
    ...checks,
    ...grantFindings(hook.command, store, where),
    ...transcriptGrantFinding(
      grantedPaths(hook.command, "read"),
      r.target.transcripts?.(env),
      where,
      scoped,
    ),
  ];
}

/**
 * What the registrations say together (pure): a file of an older install missing events, and per
 * event the plugin's hook beside them, none registered, or several. `largest` is the largest
 * transcript a plugin's SessionEnd would draft from, read only when that finding needs it.
 */
function coverageFindings(
  agent: AgentSpec,
  hooks: RegisteredHook[],
  plugin: string | undefined,
  largest: number | undefined,
): Finding[] {
  const out: Finding[] = [];
  const fix = installFix(agent);
  // Which events each settings file of ours registers: an older install has SessionStart only.
  const events = new Map<string, { scope: Scope; events: Set<string> }>();
  for (const h of hooks) {
    const seen = events.get(h.path) ?? { scope: h.scope, events: new Set<string>() };
    events.set(h.path, seen);
    seen.events.add(eventOf(h.target));
  }
  // The nudge is optional (`install --no-nudge`): a file without it is no older registration.
  const required = agent.targets.filter((t) => !t.nudges).map(eventOf);
  const older = [...events].filter(([, e]) => required.some((ev) => !e.events.has(ev)));
  for (const [path, e] of older) {
    const missing = required.filter((ev) => !e.events.has(ev));
    out.push(olderRegistrationFinding(path, missing, installFix(agent, e.scope)));
  }
  for (const target of agent.targets) {
    const event = eventOf(target);
    const found = hooks.filter((h) => h.target === target).map((h) => h.path);
    if (plugin && found.length > 0) {
      const scopes = [...new Set(found)].map((p) => events.get(p)?.scope ?? "project");
      const flags = scopes.map((s) => (s === "project" ? "" : ` --${s}`)).join(" / ");
      out.push(twiceFinding(event, plugin, [...new Set(found)], flags));
    } else if (plugin && event === "SessionEnd") {
      out.push(pluginSessionEndFinding(plugin, largest));
    } else if (plugin) {
      out.push({
        status: "ok",
        text: `${target === agent.targets[0] ? "" : `${event} `}hook from the plugin ${plugin} ` +
          "(its hooks/hooks.json)",
      });
    } else if (found.length === 0 && target.nudges) {
      out.push({ status: "info", text: `no ${event} hook: no context-pressure nudge` });
    } else if (found.length === 0 && older.length === 0) {
      out.push({
        status: "fix",
        text: `no ${agent.name === "claude" ? "" : `${agent.label} `}${event} hook runs ` +
          `session_restore.ts — fix: ${fix} (or --user)` +
          (agent.name === "claude"
            ? ", or load the checkout as a plugin (claude --plugin-dir <checkout>)"
            : ""),
      });
    } else if (found.length > 1) {
      out.push({
        status: "info",
        text: `${event} registered ${found.length} times: each runs it ${found.length} times ` +
          "(it still injects once); uninstall the extra ones",
      });
    }
  }
  return out;
}

/**
 * The registrations of `agent` in every scope it has: present, pointing at a script that exists.
 * The files are read here; what they say is judged by {@link hookFindings} and
 * {@link coverageFindings}.
 */
async function registrationFindings(
  env: Env,
  store: Store,
  agent: AgentSpec,
): Promise<{ findings: Finding[]; paths: string[] }> {
  const plugin = agent.name === "claude" ? await enabledPlugin(env, store.root, agent) : undefined;
  const read = await readRegistrations(env, store.root, agent);
  const hooks = read.filter((r): r is RegisteredHook => "hook" in r);
  const endFound = hooks.some((h) => eventOf(h.target) === "SessionEnd");
  const largest = plugin && !endFound
    ? largestTranscript(projectTranscripts(env, store.root))
    : undefined;
  const each = read.flatMap((r) => "hook" in r ? hookFindings(agent, r, store, env) : [r]);
  const findings = [...each, ...coverageFindings(agent, hooks, plugin, largest)];
  return { findings, paths: [...new Set(hooks.map((h) => h.path))] };
}

/** Claude Code's folder of this project's transcripts (what a SessionEnd draft reads). */
function projectTranscripts(env: Env, root: string): string | undefined {
  const folder = claudeTranscripts(env);
  return folder === undefined ? undefined : `${folder}/${encodeProjectDir(root)}`;
}

async function storeFinding(store: Store): Promise<Finding> {
  if (!exists(store.dir)) {
    return { status: "info", text: `no store yet at ${store.dir} (the first dump creates it)` };
  }
  let docs = 0;
  for await (const e of Deno.readDir(store.dir)) {
    if (e.isFile && e.name.endsWith(".md") && e.name !== "PARKED.md") docs++;
  }
  const latest = readLatest(store);
  if (latest !== undefined && (!isSafeSlug(latest) || !exists(docPath(store, latest)))) {
    return {
      status: "fix",
      text: `store ${store.dir}: LATEST names "${latest}", which is not a handover there — fix: ` +
        `dump again, or remove ${store.latest}`,
    };
  }
  return {
    status: "ok",
    text: `store ${store.dir}: ${docs} handover(s), LATEST ${latest ?? "(none)"}`,
  };
}

/** Everything `doctor` reports for `agent` in the project of `store`, in the order it prints. */
export async function doctorFindings(store: Store, agent: AgentSpec, env: Env): Promise<Finding[]> {
  const registration = await registrationFindings(env, store, agent);
  return [
    denoFinding(Deno.version.deno, {
      path: Deno.execPath(),
      env,
      windows: Deno.build.os === "windows",
      realPath: (path) => {
        try {
          return Deno.realPathSync(path);
        } catch {
          return undefined;
        }
      },
    }),
    ...registration.findings,
    ...(agent.name === "codex"
      ? await codexFindings(store.root, env, registration.paths)
      : agent.name === "gemini" || agent.name === "qwen"
      ? await (agent.name === "gemini" ? geminiFindings : qwenFindings)(
        store.root,
        env,
        registration.paths.some((p) => p.startsWith(`${store.root}/`)),
      )
      : []),
    await storeFinding(store),
    (await stateIgnored(store.root)) ? { status: "ok", text: ".claude/state/ is git-ignored" } : {
      status: "fix",
      text: ".claude/state/ is not git-ignored — fix: session.ts install, " +
        "or add .claude/state/ to .gitignore",
    },
  ];
}
