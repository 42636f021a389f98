/**
 * What a person typed, in a Claude Code user record (not tool results, slash-command wrappers,
 * shell input, IDE context, reminders, task notifications, interruption notices, meta, compaction
 * or sidechain records), and whether it asks for anything ({@link isSubstantive}: not a "thanks"
 * or "ok"). Its own module, importing nothing, so SessionEnd's quick look at a short transcript
 * (lib/continuity/idle.ts), which runs on every exit, needs no reader; and free of regexes on
 * the common path (only an image marker or a backslash in the text takes one).
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
 * Blocks the client wraps around or beside what the person typed, removed wherever they stand:
 * IDE context (`<ide_opened_file>`, `<ide_selection>`, any `<ide_…>`), reminders and hook output
 * (`<system-reminder>`, `<system-notification>`, `<user-prompt-submit-hook>`), a finished
 * background task delivered as a user message (`<task-notification>`) and MCP resource news
 * (`<mcp-resource-update>`, `<mcp-polling-update>`). A message of nothing else is no request.
 */
const CONTEXT_TAGS = [
  "ide_",
  "system-reminder",
  "system-notification",
  "user-prompt-submit-hook",
  "task-notification",
  "mcp-resource-update",
  "mcp-polling-update",
];

/**
 * Text of a user message that a person typed ({@link typedText}), or undefined for tool results,
 * wrappers and records no person wrote. `record` is a parsed record (facts.ts `Json`, spelled
 * out: facts.ts imports this module).
 */
// deno-lint-ignore no-explicit-any
export function promptText(record: any): string | undefined {
  if (record?.type !== "user" || record.isMeta || record.isSidechain) return undefined;
  if (record.isCompactSummary || record.isVisibleInTranscriptOnly) return undefined;
  return contentText(record.message?.content);
}

/**
 * What a person typed in message content (a string, or blocks of which the `text` ones count;
 * images are set aside), or undefined: content with a tool result, or nothing typed in it. Also
 * the content of a queued message (lib/transcript/claude.ts, `queue-operation`).
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
 * The one flattening of a message's text to what the person typed, or undefined when they typed
 * nothing here: {@link CONTEXT_TAGS} blocks removed (a tag never closed is text someone typed
 * about it: the client closes its own); a message that
 * is a slash command, its output, shell input ({@link NOT_PROMPTS}) or an interruption notice is
 * none; the client's `[Image #N]` markers go, and so does the `\` a terminal leaves at the end of
 * a line typed with a line break. Everything that quotes a request reads it through here.
 */
export function typedText(raw: string): string | undefined {
  let text = raw.includes("<") ? withoutContext(raw) : raw;
  text = text.trim();
  if (!text) return undefined;
  if (text.startsWith("<") && NOT_PROMPTS.some((w) => text.startsWith(w, 1))) return undefined;
  if (text.startsWith("[Request interrupted") || text.startsWith("Caveat: ")) return undefined;
  if (text.includes("[Image #")) text = text.replace(/\[Image #\d+\]/g, "");
  if (text.includes("\\")) text = text.replace(/\\(\r?\n)/g, "$1");
  text = text.trim();
  return text === "" ? undefined : text;
}

/** `text` without its {@link CONTEXT_TAGS} blocks (`<tag …>…</tag>`, `<tag/>`). */
function withoutContext(text: string): string {
  let out = "";
  let from = 0;
  for (let lt = text.indexOf("<"); lt !== -1; lt = text.indexOf("<", Math.max(lt + 1, from))) {
    const tag = CONTEXT_TAGS.find((t) => text.startsWith(t, lt + 1));
    if (tag === undefined) continue;
    // The whole name: `ide_opened_file`, not only the `ide_` it starts with.
    let end = lt + 1;
    while (end < text.length && !" \t\n>/".includes(text[end])) end++;
    const name = text.slice(lt + 1, end);
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
