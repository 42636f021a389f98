/**
 * Drives an interactive terminal program in a private tmux server: start it, type into it, read
 * its screen, wait for text. Each driver has its own socket, so tests never touch a user's tmux.
 * @module
 */

/** Options for starting a program. */
export interface TmuxStart {
  /** argv of the program. */
  command: string[];
  /** Working directory. */
  cwd: string;
  /** The program's full environment (nothing else is inherited). */
  env: Record<string, string>;
  /** Terminal size; default 200×50. */
  cols?: number;
  rows?: number;
}

/** A program running in tmux. */
export interface Tmux {
  /** Types `text` literally (no key names interpreted). */
  type: (text: string) => Promise<void>;
  /** Presses keys by tmux name, e.g. `Enter`, `Escape`, `C-c`. */
  press: (...keys: string[]) => Promise<void>;
  /** Types `text`, then presses Enter. */
  submit: (text: string) => Promise<void>;
  /** The visible screen as text. */
  screen: () => Promise<string>;
  /** Resolves with the screen once `test` holds (string: substring); rejects after the timeout. */
  waitForScreen: (
    test: string | RegExp | ((s: string) => boolean),
    timeoutMs?: number,
  ) => Promise<string>;
  /** Kills the tmux server (and the program). */
  kill: () => Promise<void>;
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Sleeps `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Starts `command` in a new private tmux server. */
export async function startTmux(options: TmuxStart): Promise<Tmux> {
  const socket = `session-e2e-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const tmux = async (...args: string[]): Promise<string> => {
    const out = await new Deno.Command("tmux", {
      args: ["-L", socket, ...args],
      env: { ...options.env, TERM: "xterm-256color" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`tmux ${args[0]}: ${new TextDecoder().decode(out.stderr).trim()}`);
    }
    return new TextDecoder().decode(out.stdout);
  };
  // `env -i` + explicit variables: the program sees exactly options.env, not the tmux server's.
  const envWords = Object.entries(options.env).map(([k, v]) => quote(`${k}=${v}`));
  const shellLine = ["exec", "env", "-i", ...envWords, ...options.command.map(quote)].join(" ");
  await tmux(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "e2e",
    "-x",
    String(options.cols ?? 200),
    "-y",
    String(options.rows ?? 50),
    "-c",
    options.cwd,
    shellLine,
  );
  await tmux("set-option", "-t", "e2e", "remain-on-exit", "on").catch(() => {});
  const screen = () => tmux("capture-pane", "-p", "-t", "e2e");
  return {
    type: async (text) => {
      await tmux("send-keys", "-t", "e2e", "-l", text);
    },
    press: async (...keys) => {
      await tmux("send-keys", "-t", "e2e", ...keys);
    },
    submit: async (text) => {
      await tmux("send-keys", "-t", "e2e", "-l", text);
      // Let the input settle (slash commands open a completion menu) before Enter.
      await sleep(text.startsWith("/") ? 1_500 : 300);
      await tmux("send-keys", "-t", "e2e", "Enter");
    },
    screen,
    waitForScreen: async (test, timeoutMs = 30_000) => {
      const ok = typeof test === "string"
        ? (s: string) => s.includes(test)
        : test instanceof RegExp
        ? (s: string) => test.test(s)
        : test;
      const deadline = Date.now() + timeoutMs;
      let last = "";
      while (Date.now() < deadline) {
        last = await screen().catch(() => last);
        if (ok(last)) return last;
        await sleep(200);
      }
      throw new Error(`tmux: screen did not show ${String(test)} within ${timeoutMs} ms:\n${last}`);
    },
    kill: async () => {
      await tmux("kill-server").catch(() => {});
    },
  };
}
