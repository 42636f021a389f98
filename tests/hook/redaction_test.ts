/**
 * No secret of any kind reaches the hook's output, whatever the stored document holds (written
 * before redaction existed, pulled, edited by hand): the registered command, run as an agent runs
 * it, on a plain document, a digest, a draft's notice, Codex's byte budget, Gemini's BeforeAgent
 * and a compaction card; the store keeps its bytes but `consumed`; handover prose prints as it
 * was, with nothing said redacted.
 */
import assert from "node:assert/strict";
import { answer } from "../../lib/hook/answer.ts";
import { DEFAULT_OPTIONS } from "../../lib/hook/input.ts";
import { join } from "../../lib/fs/path.ts";
import { docPath } from "../../lib/store/store.ts";
import { handoverDoc } from "../../bench/fixtures.ts";
import { prng } from "../support/prng.ts";
import { BODY, NOW, scratchProject, writeDoc } from "../support/scratch.ts";
import { clearPayload, contextOf, type Ran } from "../support/run.ts";
import { installHook, reasonOf, registeredCommand, runRegistered } from "../support/registered.ts";
import { KINDS, type Sample, Secrets } from "../secrets/_secrets.ts";
import { mark } from "../secrets/_wired.ts";

const gen = new Secrets(prng(1444));
/** One secret of every kind. */
const ALL: Sample[] = KINDS.map((kind) => gen.sample(kind));
/** Single-line secrets for the branch field, a different one per scenario. */
const branchOf = (kind: "github-token" | "slack-token" | "npm-token" | "jwt" | "openai-key") =>
  gen.sample(kind);

const SID = "sess-red-1";

/** The samples as a handover section: one per paragraph, among prose. */
function paragraphs(samples: Sample[]): string {
  return samples.map((s, i) => `Step ${i + 1}, from the old .env:\n\n${s.text}\n`).join("\n");
}

/**
 * No piece of any sample's secret is in `text` (every 16 characters of each of its lines: a
 * secret cut short, as a long branch is in the banner, still leaks), and each left its mark.
 */
function assertRedacted(text: string, samples: Sample[], where: string): void {
  for (const s of samples) {
    for (const line of s.secret.split("\n").filter((l) => l.length >= 8)) {
      for (let at = 0; at === 0 || at + 16 <= line.length; at++) {
        const piece = line.slice(at, at + 16);
        assert.ok(!text.includes(piece), `${where}: a ${s.kind} survived: ${piece}`);
      }
    }
    assert.ok(text.includes(mark(s.kind)), `${where}: no mark for ${s.kind}:\n${text}`);
  }
}

/** The whole of what the hook printed, parsed: every string in it (context, system message). */
function printed(ran: Ran): string {
  assert.equal(ran.code, 0, ran.stderr);
  assert.ok(ran.stdout.trim() !== "", `nothing printed: ${ran.stderr}`);
  return JSON.stringify(JSON.parse(ran.stdout));
}

/** A document as dump writes it, with `extra` front-matter lines; LATEST names it. */
async function putDoc(
  store: { dir: string; latest: string },
  slug: string,
  body: string,
  o: { branch?: string; extra?: string[]; consumed?: boolean; latest?: boolean } = {},
): Promise<string> {
  const text = [
    "---",
    `slug: ${slug}`,
    "created: 2026-11-30T11:58:00Z",
    ...(o.extra ?? []),
    `consumed: ${o.consumed ?? false}`,
    `branch: ${o.branch ?? "main"}`,
    "---",
    "",
    body,
  ].join("\n");
  await Deno.writeTextFile(join(store.dir, `${slug}.md`), text);
  if (o.latest !== false) await Deno.writeTextFile(store.latest, `${slug}\n`);
  return text;
}

/** The stored document is what was written, but `consumed: true`. */
async function assertOnlyConsumed(path: string, written: string): Promise<void> {
  assert.equal(
    await Deno.readTextFile(path),
    written.replace("consumed: false", "consumed: true"),
    "the store's bytes changed beyond `consumed`",
  );
}

Deno.test("the registered hook prints no secret, on every path", async (t) => {
  await using p = await scratchProject();
  const claude = await installHook(p.root);
  const run = (payload: string, cmd = claude) =>
    runRegistered(cmd, payload, { cwd: p.root, projectDir: p.root });

  await t.step("a plain document: redacted, bytes kept", async () => {
    const branch = branchOf("github-token");
    const body = `## Goal\n\nRotate every key.\n\n## Decisions\n\n${paragraphs(ALL)}`;
    const written = await putDoc(p.store, "plain", body, { branch: branch.text });
    const ran = await run(clearPayload(p.root));
    assertRedacted(printed(ran), [...ALL, branch], "plain");
    assert.match(reasonOf(ran) ?? "", /^injected "plain" \(redacted \d+ secrets: /);
    assert.ok(!ran.stderr.includes(ALL[1].secret), "a value on stderr");
    await assertOnlyConsumed(docPath(p.store, "plain"), written);
  });

  await t.step("a large document: its digest is of the redacted body", async () => {
    const branch = branchOf("slack-token");
    const body = `## Goal\n\n${paragraphs(ALL)}\n## Notes\n\n${"Filler line.\n".repeat(900)}` +
      "\n## Next step\n\nRotate.\n";
    const written = await putDoc(p.store, "large", body, { branch: branch.text });
    const ran = await run(clearPayload(p.root));
    const out = printed(ran);
    assertRedacted(out, [...ALL, branch], "digest");
    assert.match(out, /Digest of a large handover/);
    await assertOnlyConsumed(docPath(p.store, "large"), written);
  });

  await t.step("an automatic draft: its notice quotes the redacted draft", async () => {
    // The notice shows the request (the Goal's first line), five tasks and five files, each cut:
    // three kinds a draft, the multi-line PEM block first.
    for (let i = 0; i < ALL.length; i += 3) {
      const [a, b, c] = [ALL[i], ALL[i + 1], ALL[i + 2]];
      const samples = [a, b, c].filter((s) => s !== undefined);
      const branch = branchOf("npm-token");
      const body = [
        "## Goal",
        "",
        a.text,
        "",
        "## Unfinished tasks",
        "",
        ...(b ? [`- ${b.text}`] : []),
        "",
        "## Files touched",
        "",
        ...(c ? [`- ${c.text}`] : []),
        "",
      ].join("\n");
      const slug = `draft-${i}`;
      const written = await putDoc(p.store, slug, body, {
        branch: branch.text,
        extra: [`session: old-${i}`, "draft: auto"],
      });
      const ran = await run(clearPayload(p.root));
      const out = printed(ran);
      assert.match(out, /an automatic draft was saved/);
      assertRedacted(out, [...samples, branch], `notice ${i}`);
      await assertOnlyConsumed(docPath(p.store, slug), written);
    }
  });

  await t.step("a compaction card quotes the handover's parts redacted", async () => {
    const parts = ["Goal", "Standing instructions", "Decisions", "Next step"];
    const body = parts.map((title, i) =>
      `## ${title}\n\n${paragraphs(ALL.filter((_, k) => k % 4 === i))}`
    ).join("\n");
    const branch = branchOf("jwt");
    // The document this session dumped: the card's handover (LATEST is not restored on compact).
    await putDoc(p.store, "card", body, {
      branch: branch.text,
      extra: [`session: ${SID}`],
      consumed: true,
      latest: false,
    });
    const compact = clearPayload(p.root, { session_id: SID, source: "compact" });
    const afresh = await run(compact);
    assert.match(printed(afresh), /The context was just compacted/);
    assertRedacted(printed(afresh), [...ALL, branch], "card (gathered)");
    // PreCompact saves the material (redacted), the next SessionStart claims it.
    const pre = await registeredCommand(p.root, { event: "PreCompact" });
    const saved = await run(
      clearPayload(p.root, { session_id: SID, hook_event_name: "PreCompact" }),
      pre,
    );
    assert.equal(saved.code, 0, saved.stderr);
    const file = join(p.store.dir, `.compact-${SID}.md`);
    assertRedacted(await Deno.readTextFile(file), [...ALL, branch], "saved material");
    assertRedacted(printed(await run(compact)), [...ALL, branch], "card (claimed)");
    // A saved file from before redaction, or edited by hand: the card redacts it too.
    await Deno.writeTextFile(
      file,
      `---\nslug: card\nbranch: ${branch.text}\nsession: ${SID}\n---\n\n## Goal\n\n${
        paragraphs(ALL)
      }`,
    );
    assertRedacted(printed(await run(compact)), [...ALL, branch], "card (hand-edited file)");
  });

  await t.step("handover prose prints as it was, nothing redacted", async () => {
    for (const [slug, body] of [["prose-1", BODY], ["prose-2", handoverDoc("x", NOW, false)]]) {
      const text = body.startsWith("---") ? body.slice(body.indexOf("\n---\n", 4) + 5) : body;
      const written = await putDoc(p.store, slug, text);
      const ran = await run(clearPayload(p.root));
      assert.equal(reasonOf(ran), `injected "${slug}"`);
      assert.ok(contextOf(ran)!.includes(text.trim()), "the body as it was");
      await assertOnlyConsumed(docPath(p.store, slug), written);
    }
  });
});

Deno.test("Codex: the byte budget holds on the redacted text", async () => {
  await using p = await scratchProject();
  const codex = await installHook(p.root, { agent: "codex" });
  const branch = branchOf("openai-key");
  // Multi-byte filler: the context must be cut to Codex's bytes, not its characters.
  const body = `## Goal\n\n${paragraphs(ALL)}\n${"Déjà vu 🚀 — again.\n".repeat(600)}` +
    "\n## Next step\n\nRotate.\n";
  const written = await putDoc(p.store, "codex", body, { branch: branch.text });
  const ran = await runRegistered(codex, clearPayload(p.root), { cwd: p.root, projectDir: p.root });
  const out = printed(ran);
  assertRedacted(out, [...ALL, branch], "codex");
  assert.ok(new TextEncoder().encode(contextOf(ran)).length <= 9_800, "over Codex's byte cap");
  await assertOnlyConsumed(docPath(p.store, "codex"), written);
});

Deno.test("Gemini: the deferred restore on BeforeAgent prints no secret", async () => {
  await using p = await scratchProject();
  const start = await installHook(p.root, { agent: "gemini" });
  const before = await registeredCommand(p.root, { agent: "gemini", event: "BeforeAgent" });
  const branch = branchOf("github-token");
  const written = await putDoc(p.store, "gemini", `## Goal\n\n${paragraphs(ALL)}`, {
    branch: branch.text,
  });
  const payload = (event: string) =>
    clearPayload(p.root, { session_id: SID, hook_event_name: event });
  const armed = await runRegistered(start, payload("SessionStart"), { cwd: p.root });
  assert.match(printed(armed), /will be restored with your next message/);
  const ran = await runRegistered(before, payload("BeforeAgent"), { cwd: p.root });
  const out = printed(ran);
  assert.match(out, /"hookEventName":"BeforeAgent"/);
  assertRedacted(out, [...ALL, branch], "gemini");
  await assertOnlyConsumed(docPath(p.store, "gemini"), written);
});

Deno.test("a slug that holds a secret is printed redacted (the recall command then names the mark)", async () => {
  await using p = await scratchProject();
  const token = gen.sample("npm-token");
  await writeDoc(p.store, token.text, { created: new Date(NOW.getTime() - 60_000) });
  const payload = { cwd: p.root, hook_event_name: "SessionStart", source: "clear" };
  const r = await answer(payload, DEFAULT_OPTIONS, {}, NOW);
  assert.ok(r.stdout && !r.stdout.includes(token.secret), r.stdout);
  assert.ok(r.stdout.includes(mark("npm-token")));
});
