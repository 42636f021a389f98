/**
 * The store served over MCP (`session.ts mcp`, the Model Context Protocol on stdio, built on the
 * official TypeScript SDK): prompts `restore` and `dump`, the handovers and PARKED.md as
 * resources, and the CLI's modes as tools. Loaded only by that mode (lib/cli/mcp.ts): nothing
 * of it, nor of the SDK, is on a hook's path or any other mode's.
 *
 * - cli_run.ts: the CLI run the server calls (argv, stdin, working directory → exit code and text)
 * - project.ts: which project a request is about: the client's roots, else the working directory
 * - sections.ts: the handover's sections as a tool's arguments, and the markdown they make
 * - tools.ts: each tool's arguments → the CLI's words, and its output → a tool result
 * - resources.ts: the pending handover, each handover by slug, PARKED.md; the store's fingerprint
 * - prompts.ts: the `restore` and `dump` prompts' text
 * - server.ts: the MCP server itself: registration, roots, the store watch, serving on stdio
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
