/**
 * What a person typed, in a Claude Code user record (not tool results, slash-command wrappers,
 * shell input, interruption notices, meta or sidechain records), and whether it asks for
 * anything ({@link isSubstantive}: not a "thanks" or "ok"). Its own module, importing nothing,
 * so SessionEnd's quick look at a short transcript (lib/continuity/idle.ts) needs no reader; and
 * free of regexes on the common path, whose first use in a fresh process costs that look most of
 * its time (a Unicode property class ~0.8 ms).
 * @module
 */

/** What follows `<` at the start of a slash command's wrapper, its output or `!` shell input. */
const WRAPPERS = [
  "command-",
  "local-command-",
  "bash-",
  "system-reminder",
  "user-prompt-submit-hook",
];

/**
 * Text of a user message that a person typed, or undefined for tool results and wrappers.
 * `record` is a parsed record (facts.ts `Json`, spelled out: facts.ts imports this module).
 */
// deno-lint-ignore no-explicit-any
export function promptText(record: any): string | undefined {
  if (record?.type !== "user" || record.isMeta || record.isSidechain) return undefined;
  if (record.isCompactSummary || record.isVisibleInTranscriptOnly) return undefined;
  const content = record.message?.content;
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
  text = text.trim();
  if (!text) return undefined;
  // Slash commands, their output, `!` shell input and interruption notices are not requests.
  if (text.startsWith("<") && WRAPPERS.some((w) => text.startsWith(w, 1))) return undefined;
  if (text.startsWith("[Request interrupted") || text.startsWith("Caveat: ")) return undefined;
  return text;
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
    "ja oui si do hi hello hey"
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
