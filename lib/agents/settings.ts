/**
 * Hook registrations in an agent's JSONC settings file: find, add and remove our entry while
 * keeping every other key, the comments and the formatting (jsonc-parser's edit API). Pure: text
 * in, text out; the caller does the IO.
 * @module
 */

import {
  applyEdits,
  findNodeAtLocation,
  format,
  getNodeValue,
  type JSONPath,
  modify,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { FailureError } from "../errors.ts";
import type { EntryOptions, HookTarget } from "./targets.ts";

/** A settings file that cannot be edited safely: where and why. */
export class SettingsError extends FailureError {
  override name = "SettingsError";
}

/** One of our hook entries found in a settings file. */
export interface FoundHook {
  /** The matcher of its group ("" when none). */
  matcher: string;
  /** The hook's shell command. */
  command: string;
  /** Its timeout in seconds, if any. */
  timeout?: number;
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
}

/** Parses settings text (blank = empty object); throws SettingsError naming line and column. */
export function parseSettings(text: string): Node | undefined {
  if (text.trim() === "") return undefined;
  const errors: ParseError[] = [];
  let tree: Node | undefined;
  try {
    tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (err) {
    // jsonc-parser recurses per nesting level: absurdly deep input overflows the stack.
    if (err instanceof RangeError) throw new SettingsError("the file is nested too deeply to edit");
    throw err;
  }
  if (errors.length > 0) {
    const { line, column } = lineColumn(text, errors[0].offset);
    throw new SettingsError(
      `invalid JSON at line ${line}, column ${column}: ${printParseErrorCode(errors[0].error)}`,
    );
  }
  if (!tree || tree.type !== "object") {
    throw new SettingsError("the file is not a JSON object");
  }
  return tree;
}

/** The group array at the target's path, checking each level has the type we will edit. */
function groupsNode(tree: Node | undefined, target: HookTarget): Node | undefined {
  if (!tree) return undefined;
  for (let i = 1; i <= target.hookPath.length; i++) {
    const node = findNodeAtLocation(tree, target.hookPath.slice(0, i));
    if (!node) return undefined;
    const want = i === target.hookPath.length ? "array" : "object";
    if (node.type !== want) {
      throw new SettingsError(`"${target.hookPath.slice(0, i).join(".")}" is not an ${want}`);
    }
    if (i === target.hookPath.length) return node;
  }
  return undefined;
}

/** Where each of our hooks sits: group index, hook index, and whether the group is all ours. */
interface Place {
  group: number;
  hook: number;
  groupAllOurs: boolean;
  found: FoundHook;
}

function places(tree: Node | undefined, target: HookTarget): Place[] {
  const groups = groupsNode(tree, target);
  const out: Place[] = [];
  groups?.children?.forEach((groupNode, group) => {
    const value = getNodeValue(groupNode);
    if (typeof value !== "object" || value === null || !Array.isArray(value.hooks)) return;
    const hooks = value.hooks as unknown[];
    const ours = hooks.map((h) => target.isOurs(h));
    hooks.forEach((h, hook) => {
      if (!ours[hook]) return;
      const entry = h as { command: string; timeout?: unknown };
      out.push({
        group,
        hook,
        groupAllOurs: ours.every(Boolean),
        found: {
          matcher: typeof value.matcher === "string" ? value.matcher : "",
          command: entry.command,
          timeout: typeof entry.timeout === "number" ? entry.timeout : undefined,
        },
      });
    });
  });
  return out;
}

/** Our hook entries in `text` (throws SettingsError on a file we cannot read safely). */
export function findHooks(text: string, target: HookTarget): FoundHook[] {
  if (target.file) {
    const command = target.file.read(text);
    const entry = target.entry(command ?? "");
    return command !== undefined && target.isOurs({ command })
      ? [{ matcher: String(entry.matcher ?? ""), command, timeout: undefined }]
      : [];
  }
  return places(parseSettings(text), target).map((p) => p.found);
}

/** Indentation and line ending of an existing file, so inserted text looks like its neighbours. */
export function formatting(text: string) {
  const indent = /^([ \t]+)["/]/m.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

/**
 * Inserts `value` at `path`, formatting only the inserted text: jsonc-parser's own formatting
 * would re-flow the neighbouring line too, and uninstall could then not restore it byte for byte.
 */
export function insert(
  text: string,
  path: JSONPath,
  value: unknown,
  isArrayInsertion = false,
): string {
  const [raw] = modify(text, path, value, { isArrayInsertion });
  const inserted = applyEdits(text, [raw]);
  const range = { offset: raw.offset, length: raw.content.length };
  return applyEdits(inserted, format(inserted, range, formatting(text)));
}

/** Replaces the value at `path`, formatting only the new text (see {@link insert}). */
export function replace(text: string, path: JSONPath, value: unknown): string {
  const [raw] = modify(text, path, value, {});
  const replaced = applyEdits(text, [raw]);
  const range = { offset: raw.offset, length: raw.content.length };
  return applyEdits(replaced, format(replaced, range, formatting(text)));
}

/** Removes the value at `path`; an array element goes with its separator and nothing else. */
export function remove(text: string, path: JSONPath): string {
  const index = path[path.length - 1];
  if (typeof index !== "number") return applyEdits(text, modify(text, path, undefined, {}));
  const items = findNodeAtLocation(parseSettings(text)!, path.slice(0, -1))!.children!;
  const item = items[index];
  const [from, to] = index > 0
    ? [items[index - 1].offset + items[index - 1].length, item.offset + item.length]
    : items.length > 1
    ? [item.offset, items[1].offset]
    : [item.offset, item.offset + item.length];
  return text.slice(0, from) + text.slice(to);
}

/** Removes our hooks, then any group, array or object that removal left empty. */
export function removeHooks(text: string, target: HookTarget): string {
  if (target.file) return findHooks(text, target).length > 0 ? "" : text;
  let out = text;
  const found = places(parseSettings(out), target).reverse();
  for (const p of found) {
    const groupPath = [...target.hookPath, p.group];
    out = p.groupAllOurs
      ? (found.some((q) => q.group === p.group && q.hook > p.hook) ? out : remove(out, groupPath))
      : remove(out, [...groupPath, "hooks", p.hook]);
  }
  if (found.length === 0) return text;
  // Prune containers the removal emptied, innermost first (never ones that were empty before).
  for (let depth = target.hookPath.length; depth >= 1; depth--) {
    const path = target.hookPath.slice(0, depth);
    const node = findNodeAtLocation(parseSettings(out)!, path);
    const empty = node && (node.children?.length ?? 0) === 0;
    if (!empty) break;
    out = remove(out, path);
  }
  if (/^\s*\{\s*\}\s*$/.test(out)) return "";
  return out;
}

/** Adds our hook with `command` (replacing any older entry of ours); unchanged when present. */
export function addHook(
  text: string,
  target: HookTarget,
  command: string,
  options: EntryOptions = {},
): string {
  if (target.file) {
    if (text !== "" && findHooks(text, target).length === 0) {
      throw new SettingsError("the file is not one install wrote (it is left as it is)");
    }
    return target.file.render(command);
  }
  const tree = parseSettings(text);
  const existing = places(tree, target);
  const want = target.entry(command, options);
  if (
    existing.length === 1 && existing[0].groupAllOurs &&
    JSON.stringify(getNodeValue(
        findNodeAtLocation(tree!, [...target.hookPath, existing[0].group])!,
      )) === JSON.stringify(want)
  ) {
    return text;
  }
  if (existing.length === 1 && existing[0].groupAllOurs) {
    // An older entry of ours (e.g. SessionStart `clear` only): replaced where it stands.
    return replace(text, [...target.hookPath, existing[0].group], want);
  }
  const out = existing.length > 0 ? removeHooks(text, target) : text;
  const root = parseSettings(out);
  if (!root || (root.children?.length === 0 && !/\/[/*]/.test(out))) {
    // Nothing to keep: write the file whole, in the file's own style.
    const f = formatting(out);
    let value: unknown = [want];
    for (const key of [...target.hookPath].reverse()) value = { [key]: value };
    const indent = f.insertSpaces ? " ".repeat(f.tabSize) : "\t";
    return JSON.stringify(value, null, indent).replaceAll("\n", f.eol) + f.eol;
  }
  const groups = groupsNode(root, target);
  return groups
    ? insert(out, [...target.hookPath, groups.children?.length ?? 0], want, true)
    : insert(out, target.hookPath, [want]);
}

/** The key of Claude Code's status line in a settings file. */
export const STATUS_LINE_KEY = "statusLine";

/** The status line a settings text sets (its `statusLine` value), or undefined. */
export function statusLineOf(text: string): unknown {
  const tree = parseSettings(text);
  const node = tree && findNodeAtLocation(tree, [STATUS_LINE_KEY]);
  return node ? getNodeValue(node) : undefined;
}

/** True for a status line that runs `session.ts statusline`: the one `install` sets. */
export function isOurStatusLine(value: unknown): boolean {
  const command = (value as { command?: unknown } | null)?.command;
  return typeof command === "string" && /session\.ts'? statusline\b/.test(command);
}

/** `text` with our status line running `command`, unless the file already sets one. */
export function addStatusLine(text: string, command: string): string {
  const existing = statusLineOf(text);
  if (existing !== undefined && !isOurStatusLine(existing)) return text;
  const want = { type: "command", command, padding: 0 };
  if (JSON.stringify(existing) === JSON.stringify(want)) return text;
  if (existing !== undefined) return replace(text, [STATUS_LINE_KEY], want);
  const root = parseSettings(text);
  if (!root || (root.children?.length === 0 && !/\/[/*]/.test(text))) {
    const f = formatting(text);
    const indent = f.insertSpaces ? " ".repeat(f.tabSize) : "\t";
    return JSON.stringify({ [STATUS_LINE_KEY]: want }, null, indent).replaceAll("\n", f.eol) +
      f.eol;
  }
  return insert(text, [STATUS_LINE_KEY], want);
}

/** `text` without our status line (another one is kept); "" when nothing else was left. */
export function removeStatusLine(text: string): string {
  if (!isOurStatusLine(statusLineOf(text))) return text;
  const out = remove(text, [STATUS_LINE_KEY]);
  return /^\s*\{\s*\}\s*$/.test(out) ? "" : out;
}
