/**
 * The file system as every area uses it: paths, atomic writes and the cross-process lock. No
 * knowledge of the store or its documents; sync where the hook needs it. A refused operation is
 * recognised by lib/errors.ts `isFsRefusal`.
 *
 * - path.ts: joining and walking paths, existence checks, strict UTF-8 reads, quiet removal, and
 *   whether a path leads out of a root through a symlink
 * - atomic.ts: writes through a temp file and a rename (old file or new, never half); the
 *   longest file name; the fault injection the crash tests use
 * - lock.ts: the cross-process lock around read-modify-write edits (an OS lock, or an exclusive
 *   lock file where the file system refuses one); the store's docs lock
 * - stdio.ts: all of stdin as bytes; a line to stdout or stderr
 *
 * The folder's map: it exports nothing (a barrel would load the whole folder); import the
 * concept file.
 * @module
 */
