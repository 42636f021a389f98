/**
 * Claude Code's JSONL transcript: what the session really did (files touched, tasks, questions,
 * deferrals), read by streaming, tolerant of bad lines and unknown records.
 *
 * SCAFFOLD: types are the contract used by evidence/dump/sweep/recover; the parser is being
 * built in the transcript issue (#4).
 * @module
 */

/** A file the session wrote or edited, per the transcript. */
export interface TouchedFile {
  /** Path relative to the project root (absolute when outside it). */
  path: string;
  /** True when the file is outside the project root. */
  outside: boolean;
  /** The tools that touched it, e.g. `Write`, `Edit`. */
  tools: string[];
  /** 1-based transcript line of the last successful touch. */
  line: number;
}

/** A task from TaskCreate/TaskUpdate or TodoWrite, in its final state. */
export interface Task {
  id: string;
  subject: string;
  /** `pending`, `in_progress`, `completed`, … */
  status: string;
  line: number;
}

/** A question, deferral or request found in the transcript, with the line it came from. */
export interface Mention {
  text: string;
  line: number;
}

/** Everything the transcript tells us. */
export interface TranscriptFacts {
  path: string;
  files: TouchedFile[];
  tasks: Task[];
  questions: Mention[];
  deferrals: Mention[];
  firstRequest?: Mention;
  lastRequest?: Mention;
  lastAssistantText?: Mention;
}
