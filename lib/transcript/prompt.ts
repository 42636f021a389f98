/**
 * What a person typed, in a client's user message, and whether it asks for anything
 * ({@link isSubstantive}: not a "thanks" or "ok"): the one rule every quote of the user reads
 * through (docs/TRANSCRIPT.md, "What counts as typed"). A record that says who wrote it is judged by
 * that (Claude Code's `origin`, Codex's `provenance`); its text then, and the text of a record that
 * says nothing, by the shapes the clients write into a user message (wrappers, notifications and
 * the lines they append, notices, summaries). Its own module, importing nothing, so SessionEnd's
 * quick look at a short transcript (lib/continuity/idle.ts), which runs on every exit, needs no
 * reader; and free of regexes on the common path.
 * @module
 */

/**
 * What follows `<` at the start of a message that is no request at all: a slash command's
 * wrapper (`<command-name>`, `<command-message>`, `<command-args>`), its output
 * (`<local-command-stdout>`, `<local-command-caveat>`), `!` shell input and output (`<bash-…>`),
 * or a `#` note saved to memory (`<user-memory-input>`).
 */
const NOT_PROMPTS = ["command-", "local-command-", "bash-", "user-memory-input"];

/**
 * Blocks the client wraps around or beside what the person typed, removed wherever they stand: IDE
 * context (any `<ide_…>`), reminders and hook output (`<system-reminder>`, `<system-notification>`,
 * `<user-prompt-submit-hook>`), a finished background task (`<task-notification>`), MCP resource
 * news (`<mcp-resource-update>`, `<mcp-polling-update>`) and what other agents and channels send
 * into the session (`<teammate-message>`, `<cross-session-message>`, `<agent-message>`,
 * `<channel source=…>`). A name ending in `_` is a family; the others are exact names. A message of
 * nothing else is no request.
 */
const CONTEXT_TAGS = [
  "ide_",
  "system-reminder",
  "system-notification",
  "user-prompt-submit-hook",
  "task-notification",
  "mcp-resource-update",
  "mcp-polling-update",
  "teammate-message",
  "cross-session-message",
  "agent-message",
  "channel",
];

/**
 * A message that opens with this block is the client's from end to end: Claude Code writes one
 * notification per message and appends its own text after the block ("Read the output file to
 * retrieve the result: …", a cloud review's findings, a stalled command's last output).
 */
const NOTICE_TAG = "task-notification";

/** How Claude Code's notice that the user stopped a turn begins (`… by user for tool use]`). */
export const INTERRUPTION = "[Request interrupted";

/**
 * How messages the client writes as the user begin: an interruption notice, the caveat before a
 * local command's output, a compaction summary not flagged as one (Claude Code's "This session is
 * being continued…", Codex's "Another language model started…"), a Stop hook's feedback.
 */
const CLIENT_OPENINGS = [
  INTERRUPTION,
  "Caveat: ",
  "This session is being continued from a previous conversation",
  "Another language model started to solve this problem",
  "Stop hook feedback:",
];

/**
 * Lines the client appends to a message, removed wherever they stand, each naming a file: where a
 * background task's output is, and where the transcript before a compaction or an accepted plan
 * is ("If you need specific details from before …, read the full transcript at: …").
 */
const CLIENT_LINES: { cue: string; line: RegExp }[] = [
  {
    cue: "retrieve the result: ",
    line: /^[ \t]*Read the output file to retrieve the result: \S[^\n]*$\n?/gm,
  },
  { cue: "transcript available at: ", line: /^[ \t]*Full transcript available at: \S[^\n]*$\n?/gm },
  {
    cue: "read the full transcript at: ",
    line:
      /^[ \t]*(?:If you need specific details [^\n]*?, )?read the full transcript at: \S[^\n]*$\n?/gm,
  },
];

/**
 * The `origin.kind` of a message a person typed (Claude Code writes an `origin` on every prompt
 * since 2.1.1xx). Any other kind is the client's or another agent's: a task notification, a peer
 * session, a plugin, a channel, an automatic continuation. A record without one is older and is
 * judged by its text alone.
 */
const TYPED_ORIGIN = "human";

/**
 * Text of a Claude Code user record that a person typed ({@link typedText}), or undefined for tool
 * results, wrappers and records no person wrote. `record` is a parsed record (facts.ts `Json`,
 * spelled out: facts.ts imports this module).
 */
// deno-lint-ignore no-explicit-any
export function promptText(record: any): string | undefined {
  if (record?.type !== "user" || record.isMeta || record.isSidechain) return undefined;
  if (record.isCompactSummary || record.isVisibleInTranscriptOnly) return undefined;
  if (record.origin != null && record.origin.kind !== TYPED_ORIGIN) return undefined;
  return contentText(record.message?.content);
}

/**
 * The raw text of a Claude Code user record that no person typed but that tells how the turn went,
 * or undefined: the record's string content or its text blocks joined, trimmed; none with a tool
 * result.
 */
// deno-lint-ignore no-explicit-any
function rawText(record: any): string | undefined {
  if (record?.type !== "user" || record.isSidechain) return undefined;
  const content = record.message?.content;
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const b of content) {
    if (b?.type === "tool_result") return undefined;
    if (b?.type === "text" && typeof b.text === "string") parts.push(b.text);
  }
  return parts.join("\n").trim();
}

/**
 * The client's notice that the user stopped the turn (`[Request interrupted by user]`, `… for
 * tool use]`), when a Claude Code user record is one; else undefined. No request: the turn it
 * stopped tells where the session stood.
 */
// deno-lint-ignore no-explicit-any
export function interruptionText(record: any): string | undefined {
  const text = rawText(record);
  return text?.startsWith(INTERRUPTION) ? text.replace(/\\$/, "").trim() : undefined;
}

/**
 * The command of a shell the user ran themselves (Claude Code's `!` input, `<bash-input>…`), when
 * a user record is one; else undefined. No request to the agent, and the agent saw only its output.
 */
// deno-lint-ignore no-explicit-any
export function shellInputText(record: any): string | undefined {
  const text = rawText(record);
  const m = text === undefined ? null : /^<bash-input>([\s\S]*)<\/bash-input>$/.exec(text);
  return m ? m[1].trim() : undefined;
}

/** Whether a Codex user message is its notice that the user stopped the turn (`<turn_aborted>`). */
// deno-lint-ignore no-explicit-any
export function isCodexAbort(message: any): boolean {
  const content = message?.content;
  if (message?.role !== "user" || !Array.isArray(content)) return false;
  return content.some((c) =>
    typeof c?.text === "string" && c.text.trimStart().startsWith("<turn_aborted>")
  );
}

/**
 * What a person typed in message content (a string, or blocks of which the `text` ones count;
 * images are set aside), or undefined: content with a tool result, or nothing typed in it.
 */
// deno-lint-ignore no-explicit-any
export function contentText(content: any): string | undefined {
  let text: string;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const b of content) {
      if (b?.type === "tool_result") return undefined;
      if (b?.type === "text" && typeof b.text === "string") parts.push(b.text);
    }
    text = parts.join("\n");
  } else return undefined;
  return typedText(text);
}

/**
 * What a person typed in a queued message (`queue-operation` enqueue: lib/transcript/claude.ts,
 * lib/continuity/idle.ts), or undefined: {@link contentText}, and a slash command (`/name …`) is
 * none, as it is once delivered (its `<command-name>` wrapper). Only here: a delivered prompt
 * that starts with `/` is text the client let through as such ("/usr is full").
 */
// deno-lint-ignore no-explicit-any
export function queuedText(content: any): string | undefined {
  const text = contentText(content);
  return text !== undefined && /^\/[A-Za-z][\w:-]*(?:\s|$)/.test(text) ? undefined : text;
}

/**
 * What a person typed in a Codex user message (a rollout's `response_item` payload), or undefined.
 * Codex 0.171 marks each content item's author (`content_item_metadata[i].provenance.type`:
 * `user`, or `harness` for the environment, instructions and notices it adds): only the person's
 * items count. Without marks, a message that is one `<name …>…</name>` block (`<environment_context>`,
 * `<user_instructions>`, `<turn_aborted>`, `<user_shell_command>`, `<subagent_notification>`, …) or
 * AGENTS.md's text is none; an image's `<image name=[Image #N]>`/`</image>` items are set aside.
 */
// deno-lint-ignore no-explicit-any
export function codexPromptText(message: any): string | undefined {
  const content = message?.content;
  if (!Array.isArray(content)) return undefined;
  const marks = message.internal_chat_message_metadata_passthrough?.content_item_metadata;
  const parts: string[] = [];
  content.forEach((c, i) => {
    if (typeof c?.text !== "string") return;
    const who = Array.isArray(marks) ? marks[i]?.provenance?.type : undefined;
    if (who !== undefined && who !== "user") return;
    if (/^<\/?image(?: name=\[Image #\d+\])?>$/.test(c.text.trim())) return;
    parts.push(c.text);
  });
  const text = parts.join("\n").trim();
  if (/^<([a-z_]+)(?:\s[^>]*)?>[\s\S]*<\/[a-z_]+>$/.test(text) || text.startsWith("# AGENTS.md")) {
    return undefined;
  }
  return typedText(text);
}

/**
 * The one flattening of a message's text to what the person typed, or undefined when they typed
 * nothing here: a message opened by a task notification ({@link NOTICE_TAG}) is none;
 * {@link CONTEXT_TAGS} blocks are removed (a tag never closed is text someone typed about it: the
 * client closes its own), and so are the lines the client appends ({@link CLIENT_LINES}); a message
 * that is a slash command's wrapper, its output, shell input ({@link NOT_PROMPTS}) or
 * one of the client's own ({@link CLIENT_OPENINGS}) is none; the client's `[Image #N]` markers go,
 * and so does the `\` a terminal leaves at the end of a line typed with a line break. Everything
 * that quotes a request reads it through here.
 */
export function typedText(raw: string): string | undefined {
  let text = raw.trimStart();
  if (text.startsWith(`<${NOTICE_TAG}>`) && text.includes(`</${NOTICE_TAG}>`)) return undefined;
  if (text.includes("<")) text = withoutContext(text);
  for (const { cue, line } of CLIENT_LINES) {
    if (text.includes(cue)) text = text.replace(line, "");
  }
  text = text.trim();
  if (!text) return undefined;
  if (text.startsWith("<") && NOT_PROMPTS.some((w) => text.startsWith(w, 1))) return undefined;
  if (CLIENT_OPENINGS.some((o) => text.startsWith(o))) return undefined;
  if (text.includes("[Image #")) text = text.replace(/\[Image #\d+\]/g, "");
  if (text.includes("\\")) text = text.replace(/\\(\r?\n)/g, "$1");
  text = text.trim();
  return text === "" ? undefined : text;
}

/** Whether the block named `name` is one of the client's {@link CONTEXT_TAGS}. */
function isContextTag(name: string): boolean {
  return CONTEXT_TAGS.some((t) => t.endsWith("_") ? name.startsWith(t) : name === t);
}

/** `text` without its {@link CONTEXT_TAGS} blocks (`<tag …>…</tag>`, `<tag/>`). */
function withoutContext(text: string): string {
  let out = "";
  let from = 0;
  for (let lt = text.indexOf("<"); lt !== -1; lt = text.indexOf("<", Math.max(lt + 1, from))) {
    // The whole name: `ide_opened_file`, not only the `ide_` it starts with. It ends at the next
    // `<` too, so a paste of many `<` is scanned once, not once per `<`.
    let end = lt + 1;
    while (end < text.length && !" \t\n>/<".includes(text[end])) end++;
    const name = text.slice(lt + 1, end);
    if (!isContextTag(name)) continue;
    const close = text.startsWith("/>", end) ? end : text.indexOf(`</${name}>`, end);
    if (close === -1) continue;
    out += text.slice(from, lt) + " ";
    from = close === end ? end + 2 : close + name.length + 3;
  }
  return out + text.slice(from);
}

/**
 * Words that make up an acknowledgement, a greeting or a go-ahead: a reply built only of these ("thanks",
 * "ok", "great, thanks!", "yes please", "continue", "lgtm 👍") asks for nothing new, so it is no
 * request a handover should carry as the goal or the next step.
 */
const ACK_WORDS = new Set(
  (
    "thanks thank thx ty tysm you u very much so lot a ok okay k kk great good nice cool " +
    "perfect awesome excellent wonderful fantastic amazing brilliant yes yep yeah yup y sure " +
    "fine alright right correct exactly agreed indeed continue proceed go on ahead keep going " +
    "carry done lgtm sgtm looks sounds that's thats it works please pls plz cheers np noted " +
    "got understood i see all well makes sense love super sweet wow neat merci danke gracias " +
    "ja oui si do hi hello hey work job effort for your help"
  ).split(" "),
);

/**
 * Whether a user's message asks for something (a substantive request) rather than only
 * acknowledging or waving on ("thanks", "ok", "great, thanks!", "yes", "continue"). Judged word
 * by word: at most eight words, every one of them an acknowledgement word once punctuation and
 * emoji are set aside; anything longer or with another word is substantive.
 */
export function isSubstantive(text: string): boolean {
  const words = asciiWords(text) ??
    text.toLowerCase().replace(/[’‘]/g, "'").replace(/[^\p{L}\p{N}' ]+/gu, " ")
      .split(/\s+/).filter((w) => w !== "" && w !== "'");
  if (words.length === 0) return false;
  if (words.length > 8) return true;
  return !words.every((w) => ACK_WORDS.has(trimQuotes(w)));
}

/**
 * The words {@link isSubstantive} splits an ASCII-only text into (the common case), without its
 * regexes: lower-cased runs of letters, digits and `'`, a lone `'` left out. Undefined for a text
 * with any other character, which the regexes split. It stops at the ninth word: more than eight
 * make a text substantive whatever follows, and the regexes would find those nine words too (each
 * ended by an ASCII separator), so a transcript's long prompts are not split to the end.
 */
function asciiWords(text: string): string[] | undefined {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c > 127) return undefined;
    const inWord = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ||
      c === 39;
    if (inWord && start === -1) start = i;
    else if (!inWord && start !== -1) {
      const word = text.slice(start, i).toLowerCase();
      if (word !== "'" && words.push(word) > 8) return words;
      start = -1;
    }
  }
  return words;
}

/** `word` without its leading and trailing `'`s. */
function trimQuotes(word: string): string {
  let from = 0;
  let to = word.length;
  while (from < to && word.charCodeAt(from) === 39) from++;
  while (to > from && word.charCodeAt(to - 1) === 39) to--;
  return word.slice(from, to);
}
