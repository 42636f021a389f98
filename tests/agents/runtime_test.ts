/**
 * Where `doctor` says Deno was found (lib/agents/runtime.ts `denoSource`): the launcher's order
 * (PATH, `$DENO_INSTALL/bin`, `~/.deno/bin`), symlinks followed, and Windows paths (drive letters,
 * backslashes, `;` in PATH, `deno.exe`, `USERPROFILE`, any case) fed as strings.
 */
import assert from "node:assert/strict";
import { denoFinding, denoSource } from "../../lib/agents/runtime.ts";

/** A lookup over `vars`, and a file system of `links` (path → the file it leads to). */
function place(path: string, vars: Record<string, string>, links: Record<string, string>) {
  return {
    path,
    env: (name: string) => vars[name],
    realPath: (p: string) => links[p],
  };
}

Deno.test("denoSource: where bin/with-deno finds the running Deno", async (t) => {
  const real = "/usr/lib/node_modules/deno/deno";
  await t.step("on PATH through a symlink: the PATH entry, not the resolved file", () => {
    const p = place(real, { PATH: "/opt/x:/usr/bin:/bin" }, { "/usr/bin/deno": real });
    assert.deepEqual(denoSource(p), { path: "/usr/bin/deno", rule: "on PATH" });
  });
  await t.step("only in ~/.deno/bin (not on PATH)", () => {
    const d = "/home/me/.deno/bin/deno";
    const p = place(d, { PATH: "/usr/bin", HOME: "/home/me" }, { [d]: d });
    assert.deepEqual(denoSource(p), { path: d, rule: "in ~/.deno/bin" });
  });
  await t.step("$DENO_INSTALL/bin comes before ~/.deno/bin", () => {
    const d = "/opt/deno/bin/deno";
    const p = place(d, { PATH: "", HOME: "/opt/deno/..", DENO_INSTALL: "/opt/deno" }, {
      [d]: d,
      "/opt/deno/../.deno/bin/deno": d,
    });
    assert.deepEqual(denoSource(p), { path: d, rule: "in $DENO_INSTALL/bin" });
  });
  await t.step("nowhere the launcher looks: the path alone", () => {
    const p = place("/x/deno", { PATH: "/usr/bin", HOME: "/home/me" }, {});
    assert.deepEqual(denoSource(p), { path: "/x/deno" });
    assert.match(denoFinding("2.9.6", p).text, /^Deno 2\.9\.6 at \/x\/deno \(not where/);
  });
  await t.step("Windows: USERPROFILE, backslashes, deno.exe, any case, `;` in PATH", () => {
    const exe = "C:\\Users\\Me\\.deno\\bin\\deno.exe";
    const p = {
      ...place(exe, { PATH: "C:\\Windows;C:\\Windows\\System32", USERPROFILE: "C:\\Users\\me" }, {
        "C:\\Users\\me/.deno/bin/deno.exe": "c:\\users\\me\\.deno\\bin\\DENO.EXE",
      }),
      windows: true,
    };
    assert.deepEqual(denoSource(p), {
      path: "C:\\Users\\me/.deno/bin/deno.exe",
      rule: "in ~/.deno/bin",
    });
    const onPath = {
      ...place(exe, { PATH: "C:\\Windows;C:\\Users\\Me\\.deno\\bin\\" }, {
        "C:\\Users\\Me\\.deno\\bin/deno.exe": exe,
      }),
      windows: true,
    };
    assert.equal(denoSource(onPath).rule, "on PATH");
  });
  await t.step("the finding names the version, the path and the rule; old is a fix", () => {
    const d = "/home/me/.deno/bin/deno";
    const p = place(d, { HOME: "/home/me" }, { [d]: d });
    assert.deepEqual(denoFinding("2.0.6", p), {
      status: "ok",
      text: "Deno 2.0.6 at /home/me/.deno/bin/deno (in ~/.deno/bin)",
    });
    assert.equal(denoFinding("1.46.3", p).status, "fix");
  });
});
