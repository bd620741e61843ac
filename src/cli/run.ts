// The one place that owns the command line's help, unknown flags, errors and exit codes (as
// citty's runMain does, but with one sentence per failure, a "did you mean", usage that names the
// whole command, and a stack trace only with PML_LOG=debug).
import { renderUsage, runCommand, type ArgsDef, type CommandDef } from "citty";
import { closest } from "../config/did-you-mean.ts";
import { visibleChars } from "../visible-text.ts";

type Cmd = CommandDef<any>;

async function value<T>(v: T | (() => T | Promise<T>) | Promise<T>): Promise<T> {
  return typeof v === "function" ? await (v as () => T | Promise<T>)() : await v;
}

/** The command `argv` names, the names leading to it ("pml registry serve") and its own argv. */
async function resolve(main: Cmd, argv: string[]): Promise<{ cmd: Cmd; path: string[]; rest: string[] }> {
  let cmd = main;
  const path = ["pml"];
  let rest = argv;
  for (;;) {
    const subs = await value(cmd.subCommands as any);
    const i = rest.findIndex((a) => !a.startsWith("-"));
    if (!subs || i < 0 || !(rest[i]! in subs)) return { cmd, path, rest };
    cmd = await value((subs as Record<string, any>)[rest[i]!]);
    path.push(rest[i]!);
    rest = rest.slice(i + 1);
  }
}

/** Flags in `rest` that the command does not define (after `--` nothing is a flag). */
function unknownFlags(args: ArgsDef, rest: string[]): { flag: string; known: string[] }[] {
  const known = new Set<string>(["help", "h"]);
  for (const [name, def] of Object.entries(args)) {
    known.add(name);
    if ((def as any).type === "boolean") known.add(`no-${name}`);
    for (const a of [(def as any).alias ?? []].flat()) known.add(a);
  }
  const out: { flag: string; known: string[] }[] = [];
  for (const a of rest) {
    if (a === "--") break;
    if (!a.startsWith("-") || a === "-") continue;
    const name = a.replace(/^--?/, "").split("=")[0]!;
    if (!known.has(name)) out.push({ flag: a.split("=")[0]!, known: Object.keys(args) });
  }
  return out;
}

async function usage(cmd: Cmd, path: string[]): Promise<string> {
  // renderUsage names a command by its parent's name and its own: hand it the whole path.
  return renderUsage(cmd, { meta: { name: path.slice(0, -1).join(" ") } } as Cmd);
}

export async function runCli(main: Cmd, argv: string[]): Promise<void> {
  const { cmd, path, rest } = await resolve(main, argv);
  try {
    if (rest.includes("--help") || rest.includes("-h")) {
      process.stdout.write(`${await usage(cmd, path)}\n`);
      return;
    }
    const args = (await value(cmd.args as any)) ?? {};
    const bad = unknownFlags(args, rest);
    if (bad.length > 0) {
      const { flag, known } = bad[0]!;
      const near = closest(flag.replace(/^--?/, ""), known);
      process.stderr.write(`${await usage(cmd, path)}\n\n`);
      process.stderr.write(`${path.join(" ")}: unknown option ${flag}${near ? ` (did you mean --${near}?)` : ""}. See \`${path.join(" ")} --help\`.\n`);
      process.exit(2);
    }
    if (!cmd.run && cmd.subCommands) {
      // `pml` (or `pml registry`) alone asks what it does: the help, on stdout, is the answer. A
      // word that names no subcommand is a mistake.
      if (rest.length === 0) {
        process.stdout.write(`${await usage(cmd, path)}\n`);
        return;
      }
      process.stderr.write(`${await usage(cmd, path)}\n`);
      process.exit(2);
    }
    await runCommand(cmd, { rawArgs: rest });
  } catch (e) {
    fatal(e, path.join(" "));
  }
}

/** One sentence on stderr and exit 1; the stack only with PML_LOG=debug. */
export function fatal(e: unknown, what = "pml"): never {
  const err = e as { message?: string; stack?: string; code?: string; path?: string };
  if (process.env.PML_LOG === "debug" && err?.stack) process.stderr.write(`${err.stack}\n`);
  // A message may quote a file (a config error): escaped, so it cannot rewrite the terminal.
  process.stderr.write(`${what}: ${visibleChars(sentence(err))}\n`);
  process.exit(1);
}

function sentence(err: { message?: string; code?: string; path?: string }): string {
  // A temp file of an atomic write is named by its folder: that is what the user can fix.
  const where = err?.path ? ` (${err.path.replace(/[\\/]\.[^\\/]*\.tmp$/, "") || "/"})` : "";
  switch (err?.code) {
    case "EACCES":
    case "EPERM":
      return `permission denied${where}: run it where you may write, or fix the folder's permissions.`;
    case "EROFS":
      return `the file system is read-only${where}.`;
    case "ENOSPC":
      return `no space left on the device${where}.`;
    case "ENOENT":
      return `no such file or directory${where}.`;
  }
  return err?.message ?? String(err);
}
