/**
 * Test support: shell scripts run as root of an unprivileged user + mount namespace
 * (`unshare -rm`), where a test may mount a tmpfs and make it read-only or full without root.
 * @module
 */

import { isoStamp } from "../../lib/store/time.ts";
import { NOW } from "./scratch.ts";

/** Whether this machine lets us mount a tmpfs in a user namespace. */
export function canUnshare(): boolean {
  try {
    const dir = Deno.makeTempDirSync();
    const out = new Deno.Command("unshare", {
      args: [
        "--user",
        "--map-root-user",
        "--mount",
        "sh",
        "-c",
        `mount -t tmpfs -o size=16k none ${dir}`,
      ],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    Deno.removeSync(dir);
    return out.success;
  } catch {
    return false;
  }
}

/** Runs `script` with `sh -c` in a fresh user + mount namespace, the clock pinned to NOW. */
export async function inNamespace(
  script: string,
  cwd: string,
): Promise<{ success: boolean; stdout: string; stderr: string }> {
  const r = await new Deno.Command("unshare", {
    args: ["--user", "--map-root-user", "--mount", "sh", "-c", script],
    cwd,
    env: { SESSION_NOW: isoStamp(NOW), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { success: r.success, stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr) };
}
