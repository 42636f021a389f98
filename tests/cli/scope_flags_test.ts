/** `--agent`, `--user` and `--local` read into an agent and a scope (lib/cli/scope_flags.ts). */
import assert from "node:assert/strict";
import { agentOf, scopeOf } from "../../lib/cli/scope_flags.ts";
import { UsageError } from "../../lib/errors.ts";
import { BUDGETS } from "../../lib/frame/budget.ts";

Deno.test("scope flags: the agent is a row of the budget table", async (t) => {
  await t.step("every agent of the table, and Claude Code by default", () => {
    for (const name of Object.keys(BUDGETS)) assert.equal(agentOf({ agent: name }).name, name);
    assert.equal(agentOf({}).name, "claude");
  });
  await t.step("an unknown name, Object.prototype's own included, is a usage error", () => {
    for (const name of ["cursor", "toString", "constructor", "__proto__", ""]) {
      assert.throws(() => agentOf({ agent: name }), UsageError, name);
    }
  });
  await t.step("--user and --local exclude each other", () => {
    assert.throws(() => scopeOf({ user: true, local: true }), UsageError);
    assert.equal(scopeOf({ user: true }), "user");
  });
});
