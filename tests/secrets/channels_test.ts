/**
 * Leak tests, one per channel a secret entered by and came out of: each puts secrets in where a
 * user or a session would (a branch name, a hand-edited store, a prompt, a task, a file name, a
 * pulled handover) and reads everything that comes out (output, files, file names, the ref).
 */
import assert from "node:assert/strict";
import { answerSessionEnd } from "../../lib/continuity/session_end.ts";
import { readAnyTranscript } from "../../lib/transcript/read.ts";
import { DEFAULT_OPTIONS, parsePayload } from "../../lib/hook/input.ts";
import { join } from "../../lib/fs/path.ts";
import { git, NOW, put, scratchProject, writeDoc } from "../support/scratch.ts";
import { clearPayload, contextOf, runCliInProcess, runHookProcess } from "../support/run.ts";
import { endPayload, minutesAgo } from "../continuity/_fixture.ts";
import { transcriptOf } from "../support/transcript.ts";
import { STORE, world } from "../sync/_world.ts";
import { prng } from "../support/prng.ts";
import { KINDS, Secrets } from "./_secrets.ts";
import { PEM, SECRETS } from "./_wired.ts";

const { github } = SECRETS;
const gen = new Secrets(prng(2525));
/** One sample of every kind (the single-line ones: a bullet, a branch line). */
const ALL = KINDS.map((k) => gen.sample(k));
const ONE_LINE = ALL.filter((s) => !s.text.includes("\n"));

/** No secret of `samples` in `text`, in any case (a slug lowercases), nor 12 characters of one. */
function assertClean(text: string, samples = ALL, where = "") {
  const lower = text.toLowerCase();
  for (const s of samples) {
    for (const part of s.secret.split("\n").filter((p) => p.length >= 8)) {
      assert.ok(!lower.includes(part.toLowerCase()), `${where}: a ${s.kind} came out:\n${text}`);
      const random = part.replace(/^[a-z]+[_-](?:[a-z]+[_-])?/, "");
      for (let i = 0; i + 12 <= random.length; i += 6) {
        const piece = random.slice(i, i + 12).toLowerCase().replaceAll("_", "-");
        assert.ok(!lower.includes(piece), `${where}: 12 characters of a ${s.kind} came out`);
      }
    }
  }
}

/** Every file name and file under `dir`, as one text. */
function tree(dir: string): string {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    out.push(e.name);
    if (e.isDirectory) out.push(tree(path));
    else if (e.isFile) out.push(Deno.readTextFileSync(path));
  }
  return out.join("\n");
}

const cli = (cwd: string, ...args: string[]) => runCliInProcess(args, { cwd });

async function endSession(root: string, steps: Parameters<typeof transcriptOf>[1]) {
  const t = join(root, "t.jsonl");
  await Deno.writeTextFile(t, transcriptOf(root, steps, undefined, minutesAgo(5).toISOString()));
  const payload = parsePayload(JSON.stringify(endPayload(root, t)))!;
  return await answerSessionEnd(payload, DEFAULT_OPTIONS, {}, NOW.getTime());
}

Deno.test("leak 1: a token in the branch name", async (t) => {
  await using p = await scratchProject({ git: "repo", branch: `feat/${github.text}` });
  await git(p.root, ["commit", "-q", "--allow-empty", "-m", "init"]);
  await t.step("SessionEnd's draft: file name, slug, branch, LATEST", async () => {
    const r = await endSession(p.root, [{ prompt: "Add input validation to the signup form" }]);
    assert.match(r.reason, /^drafted /);
    assertClean(r.reason, [github], "the hook's reason");
    assertClean(tree(p.store.dir), [github], "the store");
  });
  await t.step("dump, unnamed", async () => {
    const r = await runCliInProcess(["dump"], { cwd: p.root, stdin: "## Goal\n\nShip it.\n" });
    assert.equal(r.code, 0, r.err);
    assertClean(r.out + r.err, [github], "dump's output");
    assertClean(tree(p.store.dir), [github], "the store");
  });
  for (const args of [["list"], ["list", "--json"], ["evidence"], ["evidence", "--json"]]) {
    await t.step(args.join(" "), async () => {
      const r = await cli(p.root, ...args);
      assert.equal(r.code, 0, r.err);
      assertClean(r.out + r.err, [github], args.join(" "));
    });
  }
});

Deno.test("leak 1: a token in the branch name, drafted and pushed: no tree entry names it", async () => {
  const w = await world(1);
  try {
    const [c0] = w.clones;
    await git(c0, ["checkout", "-q", "-b", `feat/${github.text}`]);
    const r = await endSession(c0, [{ prompt: "Add input validation to the signup form" }]);
    assert.match(r.reason, /^drafted /);
    const push = await cli(c0, "push");
    assert.equal(push.code, 0, push.err);
    assertClean(push.out + push.err, [github], "push's output");
    const names = await git(w.remote, ["ls-tree", "-r", "--name-only", "refs/session/store"]);
    assertClean(names, [github], "the ref's tree");
  } finally {
    await w.cleanup();
  }
});

/** A hand-edited store: a handover and parked bullets holding secrets of every kind. */
async function handEdited(root: string) {
  await using _ = { [Symbol.asyncDispose]: () => Promise.resolve() };
  const store = { root, dir: join(root, STORE) } as Parameters<typeof writeDoc>[0];
  const body = "## Goal\n\nShip it.\n\n## Decisions\n\n" +
    ALL.map((s) => `- configured with\n${s.text}\n`).join("\n");
  await Deno.mkdir(store.dir, { recursive: true });
  await Deno.writeTextFile(
    join(store.dir, "hand.md"),
    `---\nslug: hand\ncreated: 2026-11-30T11:00:00Z\nconsumed: false\nbranch: feat/${github.text}\n---\n\n${body}`,
  );
  await Deno.writeTextFile(join(store.dir, "LATEST"), "hand\n");
  await put(
    root,
    join(STORE, "PARKED.md"),
    "# Parked items\n\n" +
      ONE_LINE.map((s, i) => `- **deploy-${i}** — Deploy with ${s.text}. Raised: 2026-11-29.\n`)
        .join(""),
  );
}

Deno.test("leaks 2 and 3: recall, list, drop print a hand-edited store redacted", async (t) => {
  await using p = await scratchProject({ store: false });
  await handEdited(p.root);
  for (const args of [["list"], ["list", "--json"], ["recall", "hand"]]) {
    await t.step(args.join(" "), async () => {
      const r = await cli(p.root, ...args);
      assert.equal(r.code, 0, r.err);
      assertClean(r.out + r.err, ALL, args.join(" "));
      assert.match(r.err, /^redacted \d+ secrets?: /m, "the output says what it took out");
    });
  }
  await t.step("drop, no match: exit 1 and the list", async () => {
    const r = await cli(p.root, "drop", "zzzz-nothing-like-it");
    assert.equal(r.code, 1, r.out);
    assertClean(r.out + r.err, ONE_LINE, "drop, no match");
  });
  await t.step("drop, ambiguous: exit 3 and the closest", async () => {
    const r = await cli(p.root, "drop", "deploy");
    assert.equal(r.code, 3, r.out + r.err);
    assertClean(r.out + r.err, ONE_LINE, "drop, ambiguous");
  });
});

Deno.test("leaks 4, 5 and 6: a prompt's PEM block, a token at the cut, a task's slug", async (t) => {
  await using p = await scratchProject({ git: "repo" });
  await git(p.root, ["commit", "-q", "--allow-empty", "-m", "init"]);
  const long = `${
    "Please look at the deploy configuration again. ".repeat(8).slice(0, 380)
  } ${github.text} and then continue.`;
  const r = await endSession(p.root, [
    { prompt: `Use this key for the deploy:\n${PEM.text}\nand tell me if it works.` },
    { tool: "TaskCreate", input: { subject: `Rotate ${SECRETS.slack.text}` }, result: "Task #1" },
    { say: "Will do." },
    { prompt: long },
  ]);
  assert.match(r.reason, /^drafted /);
  const samples = [PEM, github, SECRETS.slack];
  await t.step("the draft", () => assertClean(tree(p.store.dir), samples, "the draft"));
  await t.step("the SessionStart notice", async () => {
    const ran = await runHookProcess(clearPayload(p.root), { cwd: p.root });
    assertClean(ran.stdout + ran.stderr, samples, "the notice");
    assert.ok(contextOf(ran) !== undefined, "a notice was printed");
  });
  await t.step("dump with a name holding a token: no file name holds it", async () => {
    const d = await runCliInProcess(["dump", `rotate ${SECRETS.stripe.text}`], {
      cwd: p.root,
      stdin: "## Goal\n\nShip it.\n",
    });
    assert.equal(d.code, 0, d.err);
    assertClean(d.out + d.err, [SECRETS.stripe], "dump's output");
    assertClean([...Deno.readDirSync(p.store.dir)].map((e) => e.name).join("\n"), [
      SECRETS.stripe,
    ], "file names");
  });
});

Deno.test("leak 7: a changed file named by a token", async (t) => {
  const glpat = gen.sample("gitlab-token");
  await using p = await scratchProject({ git: "repo" });
  await git(p.root, ["commit", "-q", "--allow-empty", "-m", "init"]);
  await put(p.root, `notes-${glpat.text}.txt`, "notes\n");
  for (const args of [["evidence"], ["evidence", "--json"], ["sweep"], ["sweep", "--json"]]) {
    await t.step(args.join(" "), async () => {
      const r = await cli(p.root, ...args);
      assertClean(r.out + r.err, [glpat], args.join(" "));
    });
  }
  await t.step(".temp/session/unlanded.md", () => {
    assertClean(Deno.readTextFileSync(join(p.root, ".temp/session/unlanded.md")), [glpat]);
  });
});

Deno.test("leak 8: a pulled handover named by a token", async () => {
  const npm = gen.sample("npm-token");
  const w = await world(2);
  try {
    const [c0, c1] = w.clones;
    await Deno.mkdir(`${c0}/${STORE}`, { recursive: true });
    await Deno.writeTextFile(
      `${c0}/${STORE}/${npm.text}.md`,
      `---\nslug: ${npm.text}\ncreated: 2026-11-30T11:00:00Z\nbranch: main\nconsumed: false\n---\n\n## Goal\n\nShip it.\n`,
    );
    const push = await cli(c0, "push");
    assert.equal(push.code, 0, push.err);
    const pull = await cli(c1, "pull");
    assert.equal(pull.code, 0, pull.err);
    assertClean(pull.out + pull.err, [npm], "pull's output");
    assertClean(tree(`${c1}/${STORE}`), [npm], "the store pulled into");
    const list = await cli(c1, "list");
    assertClean(list.out + list.err, [npm], "list");
    const names = await git(w.remote, ["ls-tree", "-r", "--name-only", "refs/session/store"]);
    assertClean(names, [npm], "the ref's tree");
  } finally {
    await w.cleanup();
  }
});

Deno.test("leak 5, Codex: a token across the reader's 300-character cut", async () => {
  await using p = await scratchProject();
  const rec = (type: string, payload: Record<string, unknown>) =>
    JSON.stringify({ timestamp: "2026-11-30T11:00:00Z", type, payload });
  const message = (role: string, type: string, text: string) =>
    rec("response_item", { type: "message", role, content: [{ type, text }] });
  const filler = "Please look at the deploy configuration again. ".repeat(8);
  const path = join(p.root, "rollout.jsonl");
  await Deno.writeTextFile(
    path,
    [
      rec("session_meta", { id: "s-1", cwd: p.root }),
      message("user", "input_text", `${filler.slice(0, 285)} ${github.text} and go on.`),
      message("assistant", "output_text", `Done. ${SECRETS.slack.text} ${filler.slice(0, 280)}`),
    ].join("\n") + "\n",
  );
  const facts = await readAnyTranscript(path, { root: p.root });
  assertClean(JSON.stringify(facts), [github, SECRETS.slack], "the rollout's facts");
});
