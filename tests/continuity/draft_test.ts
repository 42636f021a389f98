import assert from "node:assert/strict";
import {
  composeDraft,
  draftSlug,
  headBranch,
  sameProject,
  worthCarrying,
} from "../../lib/continuity/draft.ts";
import { sessionDocs } from "../../lib/store/sessions.ts";
import { DEFAULT_OPTIONS } from "../../lib/hook/input.ts";
import { sessionField, splitFrontMatter } from "../../lib/store/front_matter.ts";
import { parseTranscript } from "../../lib/transcript/claude.ts";
import type { TranscriptFacts } from "../../lib/transcript/facts.ts";
import { git, NOW, scratchProject } from "../support/scratch.ts";
import { minutesAgo, SESSION, timedTranscript, workSteps, writeSessionDump } from "./_fixture.ts";
import { answerInProcess } from "../support/run.ts";

function facts(o: Partial<TranscriptFacts> = {}): TranscriptFacts {
  return { path: "/t.jsonl", files: [], tasks: [], questions: [], deferrals: [], ...o };
}

Deno.test("worthCarrying: a substantive request, a file in the project or an unfinished task", () => {
  assert.equal(worthCarrying(facts()), false);
  assert.equal(worthCarrying(facts({ firstRequest: { text: "thanks", line: 1 } })), false);
  assert.equal(worthCarrying(facts({ firstSubstantive: { text: "fix it", line: 1 } })), true);
  assert.equal(
    worthCarrying(facts({ files: [{ path: "/tmp/x", outside: true, tools: ["Write"], line: 1 }] })),
    false,
  );
  assert.equal(
    worthCarrying(facts({ files: [{ path: "a.ts", outside: false, tools: ["Write"], line: 1 }] })),
    true,
  );
  assert.equal(
    worthCarrying(facts({ tasks: [{ id: "1", subject: "x", status: "completed", line: 1 }] })),
    false,
  );
  assert.equal(
    worthCarrying(facts({ tasks: [{ id: "1", subject: "x", status: "pending", line: 1 }] })),
    true,
  );
});

Deno.test("sameProject: the root or below it", () => {
  assert.ok(sameProject({ cwd: "/a/b" }, "/a/b"));
  assert.ok(sameProject({ cwd: "/a/b/c/" }, "/a/b"));
  assert.ok(!sameProject({ cwd: "/a/bc" }, "/a/b"));
  assert.ok(!sameProject({ cwd: "/x" }, "/a/b"));
  assert.ok(sameProject({}, "/a/b"));
});

Deno.test("headBranch reads HEAD without git", async () => {
  await using p = await scratchProject({ git: "repo", branch: "feat/x" });
  assert.equal(await headBranch(p.root), "feat/x");
  assert.equal(await headBranch(undefined), "none");
  await using q = await scratchProject();
  assert.equal(await headBranch(q.root), "detached", "a bare .git directory without HEAD");
  await git(p.root, ["commit", "-q", "--allow-empty", "-m", "x"]);
  await git(p.root, ["checkout", "-q", "--detach"]);
  assert.equal(await headBranch(p.root), "detached");
});

Deno.test("composeDraft: front matter with draft and session; the hook announces it", async () => {
  await using p = await scratchProject();
  const f = parseTranscript(
    timedTranscript(p.root, [{ at: minutesAgo(5), steps: workSteps() }]),
    { root: p.root },
  );
  const slug = draftSlug("main", NOW);
  assert.match(slug, /^main-.*-draft$/);
  const text = composeDraft(f, {
    store: p.store,
    top: p.root,
    branch: "main",
    now: NOW,
    session: SESSION,
  }, slug);
  const fields = splitFrontMatter(text)!.fields;
  assert.deepEqual(
    [fields.slug, fields.draft, fields.session, fields.consumed],
    [slug, "auto", SESSION, "false"],
  );
  await Deno.writeTextFile(`${p.store.dir}/${slug}.md`, text);
  await Deno.writeTextFile(p.store.latest, `${slug}\n`);
  const payload = { cwd: p.root, hook_event_name: "SessionStart", source: "clear" };
  const answered = await answerInProcess(payload, DEFAULT_OPTIONS, { projectDir: p.root });
  assert.match(answered.stdout ?? "", /automatic draft/, "a draft is announced by its notice");
  assert.match(text, /\| `src\/app\.ts` \|/);
});

Deno.test("session: is a plain field; sessionField keeps ids plain", async () => {
  await using p = await scratchProject();
  const text = await writeSessionDump(p.store, "mine");
  assert.equal(splitFrontMatter(text)?.fields.session, SESSION);
  assert.deepEqual(sessionDocs(p.store.dir, SESSION).map((d) => d.slug), ["mine"]);
  assert.deepEqual(sessionDocs(p.store.dir, "other"), []);
  assert.equal(sessionField(SESSION), SESSION);
  assert.equal(sessionField(undefined), undefined);
  assert.equal(sessionField("a\nb"), undefined);
  assert.equal(sessionField('"quoted"'), undefined);
  assert.equal(sessionField("x".repeat(300)), undefined);
});
