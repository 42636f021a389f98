/**
 * `recover [name] [--transcript PATH | --session ID] [--force] [--since SPEC]`: drafts a handover
 * from the transcript of a session that ended without a dump, writes it like `dump` does (with
 * `recovered: true` in the front matter) and prints it.
 * @module
 */

import { EXIT, NotFoundError, UsageError } from "../errors.ts";
import { collectRedacted, transcriptFor } from "../handover/evidence/collect.ts";
import { hasSession, recoverMarkdown } from "../handover/recover.ts";
import { restoredSlug } from "../store/latest.ts";
import { writeHandover } from "../handover/write.ts";
import { concreteMention, kindName } from "../handover/checks.ts";
import { codeSpan } from "../handover/files_table.ts";
import { type StopState, stopState } from "../transcript/stop_state.ts";
import { count, type Point, point, renderConfidence } from "./confidence.ts";
import { redactionNoteLazily, redactLazily } from "../secrets/lazy.ts";
import { refusal } from "../store/slug.ts";
import { modeSpec, parseOrHelp } from "./args.ts";
import { type Context, storeFor } from "./run_context.ts";
import { SESSION_FLAG, SINCE_FLAG, sinceFlag, TRANSCRIPT_FLAG, transcriptInputs } from "./flags.ts";

/** Arguments and help of `recover`. */
export const SPEC = modeSpec({
  mode: "recover",
  usage: "recover [name] [--transcript PATH | --session ID] [--force] [--since SPEC] [--dir DIR]",
  summary: "Drafts a handover from the transcript of a session that ended without a dump.",
  flags: {
    transcript: TRANSCRIPT_FLAG,
    session: { ...SESSION_FLAG, help: "recover this Claude Code session id" },
    force: { type: "boolean", help: "overwrite an existing handover of that name" },
    since: SINCE_FLAG,
  },
  maxPositionals: 1,
  notes: [
    "Without --transcript or --session: the newest transcript of this project that is not the",
    "running session's (CLAUDE_CODE_SESSION_ID). The draft holds the task the session was on",
    "and the requests before it, where it stopped (finished, in progress, waiting, blocked or",
    "unclear, with the transcript's line), files touched, unfinished tasks, deferrals, unanswered",
    "questions and the next step that follows; its front matter says recovered: true.",
    "Example: session.ts recover --session 5f0c2d1e-…",
  ],
});

/** Runs `recover`. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const a = parseOrHelp(SPEC, args, ctx);
  if (!a) return EXIT.ok;
  const flags = a.flags;
  if (flags.transcript && flags.session) {
    throw new UsageError("give --transcript PATH or --session ID, not both");
  }
  const name = a.positionals[0];
  const why = name === undefined ? undefined : refusal(name);
  if (why) throw new UsageError(`${why}. Nothing was written`);
  const window = sinceFlag(flags.since, ctx.now);
  const store = storeFor(ctx, a.dir);
  const where = transcriptInputs(ctx, {});
  const loaded = await transcriptFor(store.root, {
    ...where,
    transcript: flags.transcript,
    // The running session is not the one to recover: only an explicit --session names one.
    sessionId: flags.session,
    exclude: flags.session ? undefined : where.sessionId,
  });
  if (!loaded.facts) {
    throw new NotFoundError(
      `nothing to recover: ${loaded.located.reason}. Name one with --transcript PATH or --session ID`,
    );
  }
  if (!hasSession(loaded.facts)) {
    const f = loaded.facts;
    throw new NotFoundError(
      `nothing to recover: ${f.path} holds no session records (${f.lines ?? 0} lines, ` +
        `${f.badLines ?? 0} not JSON). Name the session's transcript with --transcript PATH or ` +
        "--session ID. Nothing was written",
    );
  }
  // The recovered session's commits: since its first record, unless --since says otherwise.
  const started = Date.parse(loaded.facts.startedAt ?? "");
  const since = flags.since === undefined && !Number.isNaN(started) ? new Date(started) : window;
  const { evidence: ev, redacted } = await collectRedacted({ store, now: ctx.now, since, loaded });
  // The drafted text quotes the transcript: redacted before it is written, as dump's stdin is.
  const draft = await redactLazily(recoverMarkdown(loaded.facts));
  const stopped = stopState(loaded.facts);
  const d = await writeHandover(draft.text, ev, {
    now: ctx.now,
    name,
    force: a.flags.force === true,
    recovered: true,
    store,
    // The recovered session continued a handover when it started from one (`parent:`).
    parent: restoredSlug(store, loaded.facts.sessionId),
  });
  const note = await redactionNoteLazily(draft.counts, redacted);
  if (note) ctx.err(note);
  ctx.out(d.text.trimEnd());
  ctx.out(
    [
      "",
      `Wrote ${d.path} (recovered from ${loaded.facts.path})`,
      `LATEST → ${d.slug}`,
    ].join("\n"),
  );
  const f = loaded.facts;
  // The points quote the transcript too: redacted as the draft is.
  ctx.out(
    (await redactLazily(renderConfidence(recoverPoints({
      transcript: f.path,
      lines: f.lines ?? 0,
      badLines: f.badLines ?? 0,
      stopped,
      slug: d.slug,
    })))).text,
  );
  return EXIT.ok;
}

/** What a recover read and wrote, as its points are computed from it. */
export interface RecoverFacts {
  transcript: string;
  lines: number;
  /** Lines that were not JSON records (skipped). */
  badLines: number;
  /** Where the session stopped, from the transcript (lib/transcript/stop_state.ts). */
  stopped: StopState;
  slug: string;
}

/**
 * The points of a recover (pure), each on the session's own evidence, never on text the draft
 * wrote: the transcript read whole (no line skipped as not JSON); where the session stopped told
 * by the transcript (not unclear); and a place to start named by the transcript's own words — the
 * state's evidence, else the last request — by dump's rule of concrete (lib/handover/checks.ts).
 */
export function recoverPoints(f: RecoverFacts): Point[] {
  const read = point(
    "transcript",
    f.badLines === 0,
    `${f.transcript}: ${count(f.lines, "line")}${
      f.badLines ? `, ${f.badLines} not JSON (skipped)` : ", every one read"
    }`,
    "the draft may miss what those lines held",
  );
  const s = f.stopped;
  const where = s.state === "unclear"
    ? point(
      "where it stopped",
      false,
      `unclear: ${s.what}`,
      "ask the user where the work stands before going on",
    )
    : point(
      "where it stopped",
      true,
      `${s.state}, from the transcript${s.evidence ? ` (line ${s.evidence.line})` : ""}`,
    );
  const sources = [
    ...(s.evidence ? [{ m: s.evidence, of: "where it stopped" }] : []),
    ...(s.request ? [{ m: s.request, of: "the last request" }] : []),
  ];
  let next: Point | undefined;
  for (const { m, of } of sources) {
    const named = concreteMention(m.text);
    if (!named) continue;
    next = point(
      "next step",
      true,
      `${of} names ${codeSpan(named.what)} (${kindName(named.kind)}, transcript line ${m.line})`,
    );
    break;
  }
  next ??= point(
    "next step",
    false,
    "the transcript names nothing concrete to start from",
    `recall ${f.slug}, then dump it again with a next step that names where to start`,
  );
  return [read, where, next];
}
