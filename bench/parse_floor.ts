/**
 * The floor of the "session end: draft" row: what any SessionEnd that drafts from a transcript
 * must pay besides starting Deno — bench/transcript.ts `bareLoop`: read the file line by line in
 * chunks and JSON.parse the lines that can carry a fact (a user or assistant record). (Loading
 * bench/transcript.ts loads the transcript reader too, ~1 % of the row's time, in the floor's
 * favour.)
 *
 *   deno run --allow-read bench/parse_floor.ts <transcript.jsonl>
 * @module
 */

import { bareLoop } from "./transcript.ts";

await bareLoop(Deno.args[0]);
