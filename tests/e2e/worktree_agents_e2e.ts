/**
 * End to end in the real Qwen Code and opencode (pinned, offline, against the loopback Chat
 * Completions stand-in): one store per repository across git worktrees. Each client in a sibling
 * worktree (`git worktree add ../<project>-feat`, made before the install, whose branch carries
 * the committed project install): the model's dump lands in the repository's store with
 * `worktree:`, the client's fresh session carries the handover once; `git worktree remove`, and
 * from the main checkout `list` shows the handover and `recall` prints it; in a worktree added
 * after the install, `doctor` names the fix (the hook's grant names the worktrees of the time).
 * Qwen Code's own `--worktree feat` (`.qwen/worktrees/feat`) the same way, removed as its exit
 * dialog says after a `/clear`.
 */

import assert from "node:assert/strict";
import { exists } from "../../lib/fs/path.ts";
import { cli, type World } from "./support/agents.ts";
import { inChatWorld, mustStep } from "./support/chat_flow.ts";
import { configureQwen, ensureOpencode, ensureQwen } from "./support/chat_agents.ts";
import { banner, type Side } from "./support/cross.ts";
import { opencodeSide, qwenSide } from "./support/cross_chat.ts";
import { run, runCli } from "./support/process.ts";
import { commitAll, storeDocs } from "./support/scene_store.ts";
import { sleep } from "./support/tmux.ts";

/** How a client is set up and started in a worktree. */
interface Client {
  /** `--agent` for install. */
  agent: string;
  /** Its user settings in the world's HOME (before install). */
  configure: (world: World) => Promise<void>;
  /** Starts the client (and its stand-in) in `world.project` with `args`. */
  start: (world: World, env: Record<string, string>, args?: string[]) => Promise<Side>;
  /** The tracked settings file the client itself stamps with `$version` at start, if any. */
  stamps?: string;
}

/** How many times `part` occurs in `text`. */
const count = (text: string, part: string) => text.split(part).length - 1;

/**
 * In a worktree: the model dumps, the handover is in the main checkout's store with `worktree:`
 * set to `recorded`; the fresh session carries it once, the next one nothing.
 */
async function dumpThenFresh(
  t: Deno.TestContext,
  world: World,
  side: Side,
  o: { slug: string; mark: string; recorded: string },
) {
  const step = (name: string, fn: () => Promise<void>) => mustStep(t, name, fn);
  await step("the model's dump in the worktree lands in the repository's store", async () => {
    const output = await side.dump(o.slug, o.mark);
    assert.match(output, /\/clear\s*$/m, output);
    const doc = (await storeDocs(world)).find((d) => d.slug === o.slug);
    assert.ok(doc, "in the main checkout's store");
    assert.equal(doc.fields.worktree, o.recorded);
    assert.equal(doc.fields.consumed, "false");
  });
  await step("a fresh session in the worktree carries the handover once", async () => {
    await side.clear();
    const text = await side.say("carry on");
    assert.equal(count(text, banner(o.slug)), 1, "the banner, once");
    assert.ok(text.includes(o.mark), "the body");
    assert.equal((await storeDocs(world)).find((d) => d.slug === o.slug)?.fields.consumed, "true");
    await side.clear();
    const again = await side.say("second round");
    assert.ok(!again.includes(o.mark), "the next fresh session carries nothing");
  });
}

/**
 * Nothing of ours in the worktree: git sees no change in it but the client's own `$version` stamp
 * of `stamps` (Qwen Code writes it into a settings file that lacks it, so `git worktree remove`
 * then needs `--force`, or the stamp committed).
 */
async function leftClean(worktree: string, stamps?: string) {
  const status = (await run("git", ["status", "--porcelain"], worktree)).split("\n");
  assert.deepEqual(status.filter(Boolean), stamps ? [` M ${stamps}`] : [], status.join("\n"));
  if (!stamps) return;
  const { $version, ...now } = JSON.parse(await Deno.readTextFile(`${worktree}/${stamps}`));
  assert.equal(typeof $version, "number");
  assert.deepEqual(now, JSON.parse(await run("git", ["show", `HEAD:${stamps}`], worktree)));
}

/** From the main checkout, after the worktree is gone: `list` shows it, `recall` prints it. */
async function keptInMain(world: World, slug: string, mark: string) {
  const list = await runCli(world, ["list"]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, new RegExp(slug), list.stdout);
  const recall = await runCli(world, ["recall", slug]);
  assert.equal(recall.code, 0, recall.stderr);
  assert.ok(recall.stdout.includes(mark), recall.stdout);
}

function sibling(client: Client) {
  Deno.test(`${client.agent} in a sibling worktree: dump, fresh session, worktree remove`, (t) =>
    inChatWorld(client.configure, async (world, env, hold) => {
      const feat = `${world.project}-feat`;
      const slug = `wt-${client.agent}`;
      const mark = `${client.agent.toUpperCase()}-${crypto.randomUUID().slice(0, 8)}`;
      // The worktree first (a project hook's grant names the worktrees git knows of at install),
      // then the install committed on main and brought into the worktree's branch.
      await run("git", ["worktree", "add", "-q", "-b", "feat", feat], world.project);
      const installed = await cli(world, { env }, "install", "--agent", client.agent);
      assert.equal(installed.code, 0, installed.out);
      await commitAll(world, "setup");
      await run("git", ["merge", "-q", "--ff-only", "main"], feat);
      await t.step("a worktree added after the install: doctor there says what to do", async () => {
        const late = `${world.project}-late`;
        await run("git", ["worktree", "add", "-q", "-b", "late", late], world.project);
        const r = await runCli({ ...world, project: late }, ["doctor", "--agent", client.agent]);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.ok(r.stdout.includes("may not read this worktree"), r.stdout);
        assert.ok(r.stdout.includes(`install --dir ${late}`), r.stdout);
      });
      const side = hold(await client.start({ ...world, project: feat }, env));
      await dumpThenFresh(t, world, side, { slug, mark, recorded: feat });
      await t.step("git worktree remove: the main checkout lists and recalls it", async () => {
        await side.tmux.kill(); // the client gone, as a user would leave it
        await leftClean(feat, client.stamps);
        const removed = await new Deno.Command("git", {
          args: ["worktree", "remove", ...(client.stamps ? ["--force"] : []), feat],
          cwd: world.project,
        }).output();
        assert.ok(removed.success, new TextDecoder().decode(removed.stderr));
        assert.ok(!(exists(feat)));
        await keptInMain(world, slug, mark);
      });
    }));
}

const qwenBin = ensureQwen();
const opencodeBin = ensureOpencode();

const qwen: Client = {
  agent: "qwen",
  configure: configureQwen,
  start: async (world, env, args) => qwenSide(await qwenBin, world, env, args),
  stamps: ".qwen/settings.json",
};
const opencode: Client = {
  agent: "opencode",
  configure: () => Promise.resolve(), // its config names the stand-in: opencodeSide writes it
  start: async (world, env) => opencodeSide(await opencodeBin, world, env),
};

sibling(qwen);
sibling(opencode);

Deno.test("qwen --worktree feat: dump, /clear restores once, removed at exit", (t) =>
  inChatWorld(qwen.configure, async (world, env, hold) => {
    const worktree = `${world.project}/.qwen/worktrees/feat`;
    const slug = "wt-qwen-own";
    const mark = `QWEN-OWN-${crypto.randomUUID().slice(0, 8)}`;
    const installed = await cli(world, { env }, "install", "--agent", "qwen");
    assert.equal(installed.code, 0, installed.out);
    await commitAll(world, "setup");
    const side = hold(await qwen.start(world, env, ["--worktree", "feat"]));
    assert.ok(exists(worktree), "Qwen Code made the worktree");
    await dumpThenFresh(t, world, side, { slug, mark, recorded: ".qwen/worktrees/feat" });
    await t.step(
      "Qwen's exit dialog refuses after /clear; git worktree remove: the main checkout keeps it",
      async () => {
        // Qwen asks keep or remove on a double Ctrl+C (its `/exit` quits and keeps the worktree).
        // A first Ctrl+C may only clear a suggestion left in the input: press until it asks.
        for (let i = 0; i < 6 && !(await side.tmux.screen()).includes("Keep worktree"); i++) {
          await side.tmux.press("C-c");
          await sleep(300);
        }
        await side.tmux.waitForScreen("Keep worktree", 10_000);
        await side.tmux.press("Down");
        await sleep(500);
        await side.tmux.press("Enter");
        // Qwen Code 0.24.4 removes only a worktree its current session made: after a `/clear` it
        // refuses and names `git worktree remove`, done here as the user would.
        const refused = await side.tmux.waitForScreen("remove it manually", 30_000);
        assert.ok(exists(worktree), refused);
        await side.tmux.kill();
        await leftClean(worktree); // (its settings stamp is not made in its own worktree)
        await run("git", ["worktree", "remove", worktree], world.project);
        assert.ok(!(exists(worktree)));
        await keptInMain(world, slug, mark);
      },
    );
  }));
