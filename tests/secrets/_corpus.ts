/**
 * The corpora redaction is measured on, both ways (tests/secrets/measure_test.ts, bench/secrets.ts):
 * generated true positives of every kind in every shape a text enters the store or an output in,
 * which must all be caught; and text no rule should touch — the JavaScript and TypeScript sources
 * of the npm packages this project depends on (deno.lock, read from Deno's npm cache, fetched with
 * `deno cache` when absent), minus their tests and fixtures, their prose (READMEs, changelogs), and
 * the noise of real sessions (hashes, ids, images, integrity strings, public keys, certificates).
 * @module
 */

import { redact } from "../../lib/secrets/redact.ts";
import type { SecretKind } from "../../lib/secrets/rules.ts";
import { prng } from "../support/prng.ts";
import { KINDS, type Sample, Secrets } from "./_secrets.ts";

const ROOT = new URL("../../", import.meta.url);

/** A folder of tests or fixtures: third-party text that holds sample secrets on purpose. */
const TEST_DIR = /^(?:tests?|__tests__|spec|fixtures?|__fixtures__|test-data|testdata)$/;
const CODE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const PROSE = /\.(?:md|markdown|txt)$|^(?:LICEN[CS]E|README|CHANGELOG)/i;

/** One text of a corpus: where it came from, and its lines. */
export interface Source {
  name: string;
  text: string;
}

/** `deno info --json`'s npm cache folder. */
async function npmCache(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).npmCache;
}

/** The npm packages of deno.lock, as `[name, version]`. */
function lockedPackages(): [string, string][] {
  const lock = JSON.parse(Deno.readTextFileSync(new URL("deno.lock", ROOT)));
  return Object.keys(lock.npm ?? {}).map((key) => {
    // `name@version`, a scoped name starting with `@`; a peer-resolved key goes on after `_`
    // (`@hono/node-server@2.1.11_hono@4.13.23`): the version ends there.
    const at = key.indexOf("@", 1);
    return [key.slice(0, at), key.slice(at + 1).split("_")[0]];
  });
}

/** The files under `dir` whose names `keep` accepts, test and fixture folders left out. */
function walk(dir: string, keep: RegExp, out: Source[] = []): Source[] {
  for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && !TEST_DIR.test(entry.name) && entry.name !== "node_modules") {
      walk(path, keep, out);
    } else if (entry.isFile && keep.test(entry.name)) {
      out.push({ name: path, text: Deno.readTextFileSync(path) });
    }
  }
  return out;
}

/**
 * The locked npm packages' folders in Deno's npm cache, fetched first with `deno cache` of the
 * project's own npm imports (which bring the rest, the lockfile unchanged) when one is not there
 * (a fresh machine); an error when one still is not.
 */
export async function npmPackages(): Promise<string[]> {
  const cache = `${await npmCache()}/registry.npmjs.org`;
  const dirs = lockedPackages().map(([name, version]) => `${cache}/${name}/${version}`);
  if (!dirs.every(exists)) {
    const lock = JSON.parse(Deno.readTextFileSync(new URL("deno.lock", ROOT)));
    const imports = Object.keys(lock.specifiers ?? {}).filter((s) => s.startsWith("npm:"));
    await new Deno.Command(Deno.execPath(), {
      args: ["cache", "--frozen", ...imports],
      cwd: ROOT,
      stdout: "null",
      stderr: "null",
    }).output();
  }
  for (const dir of dirs) if (!exists(dir)) throw new Error(`${dir}: not in Deno's npm cache`);
  return dirs;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The code and the prose of the locked npm packages. */
export async function thirdParty(): Promise<{ code: Source[]; prose: Source[] }> {
  const dirs = await npmPackages();
  return {
    code: dirs.flatMap((dir) => walk(dir, CODE)),
    prose: dirs.flatMap((dir) => walk(dir, PROSE)),
  };
}

const HEX = "0123456789abcdef";
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The noise of real sessions, generated (seeded): `n` lines of each sort. */
export function sessionNoise(n = 200): Source[] {
  const random = prng(2512);
  const pick = (alphabet: string, k: number) =>
    Array.from({ length: k }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
  const b64 = (bytes: number) => {
    const s = pick(B64, Math.ceil(bytes / 3) * 4);
    return bytes % 3 === 0 ? s : s.slice(0, -(3 - (bytes % 3))) + "=".repeat(3 - (bytes % 3));
  };
  const uuid = () =>
    `${pick(HEX, 8)}-${pick(HEX, 4)}-4${pick(HEX, 3)}-a${pick(HEX, 3)}-${pick(HEX, 12)}`;
  const pem = (label: string) =>
    [
      `-----BEGIN ${label}-----`,
      ...Array.from({ length: 12 }, () => pick(B64, 64)),
      `${pick(B64, 20)}==`,
      `-----END ${label}-----`,
    ].join("\n");
  const sorts: Record<string, () => string> = {
    "git hash": () => `commit ${pick(HEX, 40)} (HEAD -> main, origin/main)`,
    "short hashes": () => `${pick(HEX, 7)} Merge ${pick(HEX, 7)} into ${pick(HEX, 7)}`,
    "sha256": () => `sha256:${pick(HEX, 64)}  dist/app-${pick(HEX, 8)}.tar.gz`,
    "uuid": () => `{"sessionId":"${uuid()}","uuid":"${uuid()}","parentUuid":"${uuid()}"}`,
    "npm integrity": () =>
      `      "integrity": "sha512-${
        b64(64)
      }",\n      "resolved": "https://registry.npmjs.org/x/-/x-1.2.3.tgz"`,
    "deno.lock": () => `      "integrity": "${pick(HEX, 64)}",`,
    "pnpm lock": () => `    resolution: {integrity: sha512-${b64(64)}}`,
    "yarn lock": () => `  integrity sha1-${b64(20)}`,
    "go.sum": () => `github.com/x/y v1.2.3 h1:${b64(32)}`,
    "base64 image": () =>
      `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo${
        b64(600)
      }"}}`,
    "data url": () => `background: url(data:image/png;base64,iVBORw0KGgo${b64(300)});`,
    "ssh public key": () => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${b64(32)} alice@laptop`,
    "ssh rsa public key": () => `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${b64(384)} ci@build`,
    "known_hosts": () =>
      `|1|${b64(20)}|${b64(20)} ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY${b64(100)}`,
    "certificate": () => pem("CERTIFICATE"),
    "public key": () => pem("PUBLIC KEY"),
    "docker digest": () => `FROM node:22@sha256:${pick(HEX, 64)}`,
    "request ids": () =>
      `"requestId":"req_011C${pick(B64.slice(0, 62), 20)}","id":"msg_01${
        pick(B64.slice(0, 62), 22)
      }"`,
  };
  return Object.entries(sorts).map(([name, make]) => ({
    name,
    text: Array.from({ length: n }, make).join("\n"),
  }));
}

/** What a redaction of `sources` changed: lines in all, lines changed (with a sample of them). */
export function changedLines(sources: Source[]): { lines: number; changed: string[] } {
  let lines = 0;
  const changed: string[] = [];
  for (const { name, text } of sources) {
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      lines++;
      if (redact(line).text !== line) changed.push(`${name}: ${line.slice(0, 160)}`);
    }
  }
  return { lines, changed };
}

/**
 * A way a text enters the store or an output, as the text it then is: `undefined` where the
 * channel cannot carry the sample (a branch name holds no space).
 */
export type Channel = (sample: Sample) => string | undefined;

const oneWord = (s: Sample) => !/\s/.test(s.text);

/** The entry channels, each as the text redaction sees there. */
export const CHANNELS: Record<string, Channel> = {
  "handover body": (s) =>
    `## Decisions\n\n- Configured it with\n${s.text}\n\n## Next step\n\nRotate.`,
  "parked bullet": (s) =>
    s.text.includes("\n") ? undefined : `- **rotate** ${s.text} — why: leaked`,
  "commit subject": (s) => s.text.includes("\n") ? undefined : `fix(ci): use ${s.text} for staging`,
  "transcript line": (s) =>
    JSON.stringify({
      type: "user",
      message: { content: [{ type: "tool_result", content: `$ cat .env\n${s.text}\n` }] },
    }),
  "prompt": (s) =>
    JSON.stringify({ type: "user", message: { role: "user", content: `use this:\n${s.text}` } }),
  "quoted in a prompt": (s) => s.text.split("\n").map((l) => `> ${l}`).join("\n"),
  "read tool output": (s) =>
    s.text.split("\n").map((l, i) => `${String(i + 1).padStart(6)}\u2192${l}`).join("\n"),
  "yaml": (s) => `config:\n  value: |\n${s.text.split("\n").map((l) => `    ${l}`).join("\n")}`,
  "file name": (s) => oneWord(s) ? `notes-${s.text}.txt` : undefined,
  "branch": (s) => oneWord(s) ? `feat/${s.text}` : undefined,
  "json output": (s) => JSON.stringify({ summary: s.text, why: s.text }),
};

/** Every generated sample through every channel that carries it: those whose secret survived. */
export function leaks(rounds = 20): { positives: number; leaked: string[] } {
  const gen = new Secrets(prng(77));
  let positives = 0;
  const leaked: string[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const kind of KINDS) {
      const sample = gen.sample(kind);
      for (const [channel, enter] of Object.entries(CHANNELS)) {
        const text = enter(sample);
        if (text === undefined) continue;
        positives++;
        const out = redact(text).text;
        const parts = sample.secret.split("\n").filter((p) => p.length >= 8);
        if (parts.some((p) => out.includes(p) || out.includes(JSON.stringify(p).slice(1, -1)))) {
          leaked.push(`${kind as SecretKind} via ${channel}: ${out.slice(0, 200)}`);
        }
      }
    }
  }
  return { positives, leaked };
}
