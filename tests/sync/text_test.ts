import assert from "node:assert/strict";
import { git } from "../support/scratch.ts";
import { runCliInProcess } from "../support/run.ts";
import { plantRef, type RefFile, STORE, world } from "./_world.ts";

const ENC = new TextEncoder();
const DOC = (slug: string, body = `The ${slug} handover.`) =>
  `---\nslug: ${slug}\ncreated: 2026-11-30T10:00:00Z\nconsumed: false\nbranch: main\n---\n\n` +
  `## Goal\n${body}\n`;
const PARKED = "# Parked items\n\n- **remote-item** — From the remote. Raised: 2026-11-30.\n";

/** A PARKED.md that is a binary file: 100 bullets' worth of garbage and NUL bytes. */
function binaryParked(): Uint8Array {
  const out: number[] = [...ENC.encode("# Parked items\n\n")];
  for (let i = 0; i < 100; i++) out.push(...ENC.encode(`- **g${i}** — `), 0, 0xff, 0xfe, i, 10);
  return new Uint8Array(out);
}
const latin1 = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));

/** Every file under the store, bytes included. */
function snapshot(cwd: string): string {
  const out: string[] = [];
  for (
    const e of [...Deno.readDirSync(`${cwd}/${STORE}`)].sort((a, b) => a.name < b.name ? -1 : 1)
  ) {
    if (e.isFile) {
      out.push(
        e.name,
        Array.from(Deno.readFileSync(`${cwd}/${STORE}/${e.name}`)).join(),
      );
    }
  }
  return out.join("\n");
}

/** `body` run in a clone with one parked item, against a bare remote; both removed after. */
async function withClone(body: (a: string, remote: string) => Promise<void>): Promise<void> {
  const w = await world(1);
  try {
    await runCliInProcess(["park", "Local item"], { cwd: w.clones[0] });
    await body(w.clones[0], w.remote);
  } finally {
    await w.cleanup();
  }
}
const refTip = async (remote: string) =>
  (await git(remote, ["rev-parse", "refs/session/store"])).trim();

const cases: { what: string; file: string; files: RefFile[] }[] = [
  {
    what: "a binary PARKED.md",
    file: "PARKED.md",
    files: [{ path: "PARKED.md", bytes: binaryParked() }],
  },
  {
    what: "a PARKED.md that is not UTF-8",
    file: "PARKED.md",
    files: [{ path: "PARKED.md", bytes: latin1("# Parked items\n\n- **caf\xe9** — Caf\xe9.\n") }],
  },
  {
    what: "a dropped.jsonl with a NUL byte",
    file: "dropped.jsonl",
    files: [{ path: "PARKED.md", bytes: PARKED }, { path: "dropped.jsonl", bytes: '{"a":"\0"}\n' }],
  },
  {
    what: "a handover with a NUL byte",
    file: "handovers/bad.md",
    files: [
      { path: "PARKED.md", bytes: PARKED },
      { path: "handovers/good.md", bytes: DOC("good") },
      { path: "handovers/bad.md", bytes: DOC("bad", "before\0after") },
    ],
  },
  {
    what: "a handover that is not UTF-8",
    file: "handovers/latin.md",
    files: [{ path: "PARKED.md", bytes: PARKED }, {
      path: "handovers/latin.md",
      bytes: latin1(DOC("latin", "Caf\xe9")),
    }],
  },
];

Deno.test("a remote file that is not text: pull and push refuse, naming it; nothing changes", async (t) => {
  for (const c of cases) {
    await t.step(c.what, () =>
      withClone(async (a, remote) => {
        await runCliInProcess(["dump", "mine"], { cwd: a, stdin: "## Goal\nMine.\n" });
        const tip = await plantRef(remote, c.files);
        const before = snapshot(a);
        for (const mode of ["pull", "push"]) {
          const r = await runCliInProcess([mode], { cwd: a });
          assert.equal(r.code, 1, `${mode}: ${r.out}${r.err}`);
          assert.ok(r.err.includes(`holds ${c.file}, which is not text`), r.err);
          assert.match(r.err, /nothing was changed/);
          assert.equal(snapshot(a), before, mode);
          assert.equal(await refTip(remote), tip);
        }
      }));
  }
  await t.step(
    "text with a BOM, emoji and other scripts goes through",
    () =>
      withClone(async (a, remote) => {
        await plantRef(remote, [
          {
            path: "PARKED.md",
            bytes: "\ufeff# Parked items\n\n- **emoji** — Fix 🚀 日本語. Raised: 2026-11-30.\n",
          },
          { path: "dropped.jsonl", bytes: '{"item":"x","text":"é 🚀"}\n' },
          { path: "handovers/intl.md", bytes: DOC("intl", "Straße, 日本語, 👩‍💻") },
        ]);
        const r = await runCliInProcess(["pull"], { cwd: a });
        assert.equal(r.code, 0, r.err);
        assert.match(Deno.readTextFileSync(`${a}/${STORE}/intl.md`), /👩‍💻/);
        assert.match(Deno.readTextFileSync(`${a}/${STORE}/PARKED.md`), /🚀/);
      }),
  );
});

Deno.test("a local file that is not text: push refuses, naming it; the remote unchanged", async (t) => {
  const local: { what: string; file: string; write: (store: string) => Promise<void> }[] = [
    {
      what: "PARKED.md with a byte that is not UTF-8",
      file: "PARKED.md",
      write: (s) =>
        Deno.writeFile(`${s}/PARKED.md`, latin1("# Parked items\n\n- **caf\xe9** — x.\n")),
    },
    {
      what: "a handover with a NUL byte",
      file: "nul.md",
      write: (s) => Deno.writeTextFile(`${s}/nul.md`, DOC("nul", "a\0b")),
    },
  ];
  for (const c of local) {
    await t.step(c.what, () =>
      withClone(async (a, remote) => {
        assert.equal((await runCliInProcess(["push"], { cwd: a })).code, 0);
        const tip = await refTip(remote);
        await c.write(`${a}/${STORE}`);
        const before = snapshot(a);
        const r = await runCliInProcess(["push"], { cwd: a });
        assert.equal(r.code, 1, r.out + r.err);
        assert.ok(r.err.includes(`this store's ${c.file} is not text`), r.err);
        assert.equal(snapshot(a), before);
        assert.equal(await refTip(remote), tip);
      }));
  }
});
