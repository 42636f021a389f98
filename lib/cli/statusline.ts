/**
 * `statusline [--segment]`: Claude Code's status line command. Reads the client's statusline JSON
 * on stdin and prints exactly one line: the handover a `/clear` would restore now (slug, age), the
 * open parked count, and the context fill; `--segment` leaves the fill out, for users who compose
 * their own line. It also records the client's exact context figures for this session, which the
 * UserPromptSubmit nudge prefers to the transcript's (lib/pressure/state.ts), creating the store
 * for them only in a project an install names. Nothing it reads can make it fail: what is unknown
 * is left out of the line.
 * @module
 */

import { modeSpec, parseOrHelp } from "./args.ts";
import type { Context } from "./run_context.ts";
import { EXIT } from "../errors.ts";
import { findRoot, type Store, storeAt, storeOutside } from "../store/store.ts";
import { candidateIn } from "../hook/restore.ts";
import { DEFAULT_OPTIONS } from "../hook/input.ts";
import { bannerAgo } from "../frame/banner.ts";
import { exists, isDir } from "../fs/path.ts";
import type * as Installed from "../agents/installed.ts";
import type * as ParkedFile from "../parked/file.ts";
import { claudeUsed, type Fill, fillWords } from "../pressure/fill.ts";
import { recordStatusFill } from "../pressure/state.ts";
import { safeSessionId } from "../store/front_matter.ts";

/** Arguments and help of `statusline`. */
export const SPEC = modeSpec({
  mode: "statusline",
  usage: "statusline [--segment] [--dir DIR]",
  summary: "One status line from Claude Code's statusline JSON on stdin: the handover a /clear " +
    "would restore, open parked items, the context fill.",
  flags: {
    segment: {
      type: "boolean",
      help: "only the handover and parked part, for a status line of your own",
    },
  },
  notes: [
    "Set by install --statusline where no settings file of the project has a status line.",
    "Records the context figures per session for the UserPromptSubmit nudge: in the store, " +
    "created first only where the project's settings register the hooks.",
  ],
});

/** What the statusline JSON carries that this reads. */
export interface StatusInput {
  session?: string;
  cwd?: string;
  projectDir?: string;
  fill?: Fill;
}

/** The statusline JSON read leniently (pure): anything missing or malformed is left undefined. */
export function parseStatusInput(text: string): StatusInput {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof v !== "object" || v === null) return {};
  const o = v as Record<string, unknown>;
  const str = (x: unknown) => typeof x === "string" && x !== "" ? x : undefined;
  const workspace = (o.workspace ?? {}) as Record<string, unknown>;
  return {
    session: str(o.session_id),
    cwd: str(workspace.current_dir) ?? str(o.cwd),
    projectDir: str(workspace.project_dir),
    fill: windowFill(o.context_window),
  };
}

/**
 * The fill `context_window` states: `current_usage` summed as the transcript's usage is (input,
 * cache creation, cache read, output) against `context_window_size`, else `used_percentage` of it.
 * Undefined before the first reply (Claude Code sends nulls then).
 */
export function windowFill(value: unknown): Fill | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const w = value as Record<string, unknown>;
  const size = w.context_window_size;
  if (typeof size !== "number" || !Number.isFinite(size) || size <= 0) return undefined;
  const used = claudeUsed(w.current_usage) ??
    (typeof w.used_percentage === "number" && Number.isFinite(w.used_percentage) &&
        w.used_percentage >= 0
      ? Math.round((w.used_percentage / 100) * size)
      : undefined);
  return used === undefined ? undefined : { used, size, source: "statusline" };
}

/** The parts of the line (pure): handover, parked, and the fill unless `segment`. */
export function statusText(
  parts: { handover?: { slug: string; ago: string }; parked: number; fill?: Fill },
  segment: boolean,
): string {
  const h = parts.handover;
  const words = [
    h ? `session: "${h.slug}" pending (${h.ago})` : "session: no handover pending",
    `${parts.parked} parked`,
    ...(!segment && parts.fill ? [`context ${fillWords(parts.fill)}`] : []),
  ];
  return words.join(" · ");
}

/** The store of the project the status line's session works in, when it stays inside it. */
function statusStore(input: StatusInput, ctx: Context, dir?: string): Store | undefined {
  const store = storeAt(findRoot({
    dir,
    projectDir: input.projectDir ?? ctx.env("CLAUDE_PROJECT_DIR"),
    cwd: input.cwd ?? ctx.cwd,
  }));
  return storeOutside(store) === undefined ? store : undefined;
}

/**
 * Whether the status line may create the missing store to keep its figures: only in a project an
 * install names (lib/agents/installed.ts), so the nudge has them from the first prompt. The
 * settings reader is loaded only while the store is missing.
 */
async function mayCreate(store: Store, ctx: Context): Promise<boolean> {
  if (isDir(store.dir)) return false;
  try {
    const installed: typeof Installed = await import(
      import.meta.resolve("../agents/installed.ts")
    );
    return installed.installedIn(store, ctx.env);
  } catch {
    return false;
  }
}

/** Runs `statusline`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const input = parseStatusInput(await ctx.readStdin().catch(() => ""));
  const store = statusStore(input, ctx, a.dir);
  let handover: { slug: string; ago: string } | undefined;
  let parked = 0;
  if (store) {
    const found = candidateIn(store, input.session, ctx.now, DEFAULT_OPTIONS);
    if (!("reason" in found)) {
      handover = { slug: found.slug, ago: bannerAgo(found.created, ctx.now) };
    }
    // The parked reader only when there is a PARKED.md: a status line runs after every reply.
    if (exists(store.parked)) {
      try {
        const file: typeof ParkedFile = await import(import.meta.resolve("../parked/file.ts"));
        parked = file.readParked(store).items.length;
      } catch { /* an unreadable PARKED.md counts none here; list says why */ }
    }
    if (input.fill && safeSessionId(input.session)) {
      recordStatusFill(store, input.session, input.fill, ctx.now, await mayCreate(store, ctx));
    }
  }
  ctx.out(statusText({ handover, parked, fill: input.fill }, a.flags.segment === true));
  return EXIT.ok;
}
