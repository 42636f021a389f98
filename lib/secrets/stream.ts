/**
 * Redaction of a text that arrives in pieces (a transcript read in chunks, a hook's output as it
 * is built): complete lines are redacted and handed on, a partial line waits for its end. Every
 * rule but the PEM block's stays within a line, so this gives what {@link redact} gives on the
 * whole text; a PEM block begun and not yet ended is held (up to a bound) until its END line.
 * @module
 */

import { addCounts, redact, type RedactionCounts } from "./redact.ts";

/** How much text a begun PEM block may hold back before it is redacted as cut short. */
const HOLD_LIMIT = 131_072;

const BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;

/** Where a PEM block that has no END yet begins in `text`, or -1. */
function openBlock(text: string): number {
  let open = -1;
  BEGIN.lastIndex = 0;
  for (let m = BEGIN.exec(text); m !== null; m = BEGIN.exec(text)) {
    const end = text.indexOf("-----END ", m.index + m[0].length);
    if (end < 0) {
      open = m.index;
      break;
    }
    BEGIN.lastIndex = end + 9;
  }
  return open;
}

/** A line-by-line redactor: `write` what arrives, `end` once; `counts` adds up everything. */
export class LineRedactor {
  #pending = "";
  counts: RedactionCounts = {};

  /** Redacts and returns what of `chunk` (with what was held) is complete; holds the rest. */
  write(chunk: string): string {
    this.#pending += chunk;
    const lastBreak = this.#pending.lastIndexOf("\n");
    if (lastBreak < 0) return this.#overflow();
    let cut = lastBreak + 1;
    const open = openBlock(this.#pending.slice(0, cut));
    if (open >= 0 && cut - open < HOLD_LIMIT) cut = this.#pending.lastIndexOf("\n", open) + 1;
    if (cut === 0) return this.#overflow();
    return this.#emit(cut);
  }

  /** Redacts and returns everything still held. */
  end(): string {
    return this.#emit(this.#pending.length);
  }

  /**
   * A line longer than the bound (a transcript's JSON line can hold a whole file) is cut at its
   * last escaped newline (`\\n` inside a JSON string), where no rule but the PEM block's reaches
   * across, and never inside a begun PEM block; past four times the bound, as it stands.
   */
  #overflow(): string {
    if (this.#pending.length < HOLD_LIMIT) return "";
    const cut = this.#pending.lastIndexOf("\\n") + 2;
    if (cut >= 2 && openBlock(this.#pending.slice(0, cut)) < 0) return this.#emit(cut);
    return this.#pending.length >= 4 * HOLD_LIMIT ? this.#emit(this.#pending.length) : "";
  }

  #emit(cut: number): string {
    const r = redact(this.#pending.slice(0, cut));
    this.#pending = this.#pending.slice(cut);
    this.counts = addCounts(this.counts, r.counts);
    return r.text;
  }
}
