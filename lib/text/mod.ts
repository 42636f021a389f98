/**
 * Text: what counts as text (`utf8.ts`: UTF-8 without a NUL byte), and the one rule for cutting a
 * text to a length budget (`cut.ts`). Every budget in session is counted in UTF-16 units
 * (`String.length`), and every cut lands between code points, so no cut leaves half of a surrogate
 * pair — which the agent would receive as a lone surrogate and a file would store as U+FFFD.
 * A leaf: it imports nothing. Import the concept file, not this one.
 * @module
 */
