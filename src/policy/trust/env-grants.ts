// What the workspace's .mcp.json grants through the `env` of the entry that launches pml: a
// variable that weakens pml (turns the OS sandbox off, moves its state, sends texts or a key
// somewhere) is a grant like `cloud.url`, bound to its name and the file's value, listed by
// `pml trust` and applied only once the user trusted the workspace. Untrusted, pml runs as if the
// variable were not set and says so once. Variables the user's shell set work as always
// (config/workspace-env.ts tells the two apart). The others pml reads only restrict or tune
// (PML_LOG, PML_LIST_CHANGED_MS, PML_EMBEDDINGS_MODEL / _API, which do nothing without a URL).
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { resolveWorkspace } from "../../config/workspace.ts";
import { type FileEnvVar, fromFile, noteFromWorkspaceFile, pmlEntryEnv, setsOwnValue } from "../../config/workspace-env.ts";
import { turnsConfinementOff } from "../../sandbox/confine.ts";
import { visibleLine } from "../../visible-text.ts";
import type { Grant } from "./grants.ts";
import { readTrust } from "./trust-record.ts";

type Env = Record<string, string | undefined>;

interface Weakening {
  /** What the value lets happen, in plain words. */
  say(value: string): string;
  /** Whether this value weakens (default: any value that is not blank). */
  weakens?(value: string): boolean;
  /** The value is a secret: neither shown nor kept in the trust record, only its digest. */
  secret?: boolean;
  /** What it is without the file, when not unset (and the file did not wrap the user's value). */
  without?(): string | undefined;
  /** It acted in pml itself before pml ran a line (the loader, the runtime read it): untrusted,
   * pml can only keep it from what it starts, and says so. */
  early?: boolean;
}

const npmRegistry: Weakening = { say: (v) => `installs the npm dependencies of tool servers from ${v}` };

const WEAKENING: Record<string, Weakening> = {
  PML_HOME: { say: (v) => `moves pml's state (tool pins, approvals' key, capabilities, installed servers) to ${v}` },
  PML_CONFINE: { say: () => "turns the OS sandbox off: commands and tool servers run as you, unconfined", weakens: turnsConfinementOff },
  PML_WORKSPACE: { say: (v) => `makes ${v} the workspace that tools and sandboxed code may read and write` },
  // The client sets it to the project it started pml in; the file's own value would move the workspace.
  CLAUDE_PROJECT_DIR: { say: (v) => `makes ${v} the workspace that tools and sandboxed code may read and write` },
  PML_EMBEDDINGS_URL: { say: (v) => `sends capability and tool texts to ${v} for embeddings` },
  PML_EMBEDDINGS_API_KEY_ENV: { say: (v) => `sends your $${v} to the embeddings provider` },
  PML_API_KEY: { say: () => "uses the pml key it holds: your cloud tool calls go to that key's account", secret: true },
  PML_STATE_KEY: { say: () => "signs pml's approvals and request state with a key the file holds", secret: true },
  PML_SERVE_TOKEN: { say: () => "lets whoever knows the token it holds call `pml serve`", secret: true },
  PML_NPM_REGISTRY: npmRegistry,
  npm_config_registry: npmRegistry,
  NPM_CONFIG_REGISTRY: npmRegistry,
  PML_RELEASES_URL: { say: (v) => `asks ${v} about pml releases` },
  // ~/.pml, the trust record's home, and what confinement hides, as PML_HOME does.
  HOME: { say: (v) => `makes ${v} your home for pml (its state in ${v}/.pml, what sandboxed commands cannot see)`, without: accountHome },
  // Which bwrap, git or npm pml runs.
  PATH: { say: (v) => `makes pml look for the programs it runs (bwrap, git, npm) in ${v}`, without: () => "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" },
  // Passed to what pml starts (env-resolver.ts baseEnv): tool servers that run commands run them with it.
  SHELL: { say: (v) => `makes ${v} the shell of the programs pml starts (a tool server that runs commands runs them with it)`, without: () => account()?.shell },
};

// Variables that make a program load or run code they name before its own code runs. pml hands
// the programs it starts a short list of its variables only (env-resolver.ts baseEnv), but some
// start with all of them (the bwrap probe, the embedding copy), and the rest of the process may
// later; untrusted, they are unset at start, so nothing pml starts sees them.
const loads = (what: string): Weakening => ({ say: (v) => `${what} ${v} (it acted in pml itself as it started)`, early: true });
const LOADERS: Array<[RegExp, Weakening]> = [
  [/^(LD|DYLD)_/, loads("makes the programs pml starts load code from")],
  [/^NODE_(OPTIONS|PATH)$/, loads("makes the Node.js programs pml starts load")],
  [/^BUN_/, loads("changes how Bun (pml's runtime, and the tool servers it runs) starts or installs:")],
  [/^GIT_/, loads("changes what git runs or reads, in git commands pml starts:")],
  [/^(PYTHON(PATH|STARTUP|HOME)|PERL5?(LIB|OPT)|RUBY(LIB|OPT)|BASH_ENV|ENV)$/, loads("makes the interpreters and shells pml starts load")],
  [/^npm_config_|^NPM_CONFIG_/, loads("changes how npm runs and installs, in programs pml starts:")],
];

/** How the variable `name` may weaken pml, if it may. */
function weakeningOf(name: string): Weakening | undefined {
  if (Object.hasOwn(WEAKENING, name)) return WEAKENING[name];
  return LOADERS.find(([re]) => re.test(name))?.[1];
}

/** The user's entry in the account database: home and login shell. */
function account(): { home: string; shell?: string } | undefined {
  const uid = process.getuid?.();
  try {
    for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
      const f = line.split(":");
      if (f.length >= 7 && Number(f[2]) === uid && f[5]) return { home: f[5], ...(f[6] ? { shell: f[6] } : {}) };
    }
  } catch {}
  return undefined;
}

/** The user's home from the account database, not from $HOME (Bun's os.homedir() reads $HOME). */
function accountHome(): string | undefined {
  const home = account()?.home;
  if (home) return home;
  const mac = process.platform === "darwin" ? `/Users/${userInfo().username}` : undefined;
  return mac && existsSync(mac) ? mac : undefined;
}

const weakens = (name: string, value: string) => (weakeningOf(name)!.weakens ?? ((x: string) => x.trim() !== ""))(value);

function grantOf(v: FileEnvVar): Grant {
  const w = weakeningOf(v.name)!;
  const value = w.secret ? `sha256:${createHash("sha256").update(v.template).digest("hex").slice(0, 16)}` : JSON.stringify(v.template);
  return { id: `.mcp.json env ${v.name} ${value}`, text: visibleLine(`.mcp.json env ${v.name}${w.secret ? "" : `=${v.template}`}: ${w.say(v.template)}`) };
}

/** The variables of the workspace's .mcp.json that may weaken pml, and their grants. */
function weakeningVars(workspace: string): FileEnvVar[] {
  return pmlEntryEnv(workspace).filter((v) => weakeningOf(v.name) !== undefined && setsOwnValue(v));
}

/** What the workspace's .mcp.json grants through pml's environment (what `pml trust` lists). A
 * value the client expands (`${X:-off}`) may weaken, so it is listed too. */
export function envGrantsOf(workspace: string): Grant[] {
  const byId = new Map<string, Grant>();
  for (const v of weakeningVars(workspace)) if (v.template.includes("${") || weakens(v.name, v.template)) byId.set(grantOf(v).id, grantOf(v));
  return [...byId.values()];
}

export const isEnvGrant = (g: Grant) => g.id.startsWith(".mcp.json env ");

/**
 * At start: each weakening variable that came from the workspace's .mcp.json applies only when
 * the user trusted it; otherwise it is put back to what it would be without the file (unset,
 * mostly), so nothing downstream sees it, and stderr says so once. The file is looked for where
 * the client started pml (its folder, as the project markers find it) and in the CLAUDE_PROJECT_DIR
 * pml was given: that same file may set CLAUDE_PROJECT_DIR (or PML_WORKSPACE) to a folder without
 * one, which must not hide the rest of what it sets. Each file's trust record is read from the
 * user's own home.
 */
export function applyWorkspaceEnvTrust(env: Env = process.env): void {
  const found = new Set<string>();
  for (const names of [["PML_WORKSPACE", "CLAUDE_PROJECT_DIR"], ["PML_WORKSPACE"]]) {
    try {
      found.add(resolveWorkspace({ env: { ...env, ...Object.fromEntries(names.map((n) => [n, undefined])) } }).root);
    } catch {}
  }
  const seen = new Set<string>();
  for (const workspace of found) applyFileEnvTrust(workspace, env, seen);
}

/** What the .mcp.json of `workspace` set of pml's environment, applied or put back. `seen`: the
 * variables an earlier file accounted for. */
function applyFileEnvTrust(workspace: string, env: Env, seen: Set<string>): void {
  const came: Array<{ v: FileEnvVar; own?: string }> = [];
  for (const v of weakeningVars(workspace)) {
    const value = env[v.name];
    const got = value !== undefined && weakens(v.name, value) && !seen.has(v.name) ? fromFile(v, value, env) : undefined;
    if (!got) continue;
    const own = got.own ?? weakeningOf(v.name)!.without?.();
    came.push({ v, own });
    seen.add(v.name);
    noteFromWorkspaceFile(v.name, own);
  }
  if (!came.length) return;
  const trusted = new Set(readTrust(workspace, env)?.grants ?? []);
  const ignored = came.filter((c) => !trusted.has(grantOf(c.v).id));
  for (const { v, own } of ignored) {
    if (own === undefined) delete env[v.name];
    else env[v.name] = own;
  }
  if (!ignored.length) return;
  // Not through the logger: PML_LOG (which the same file may set) must not hide it.
  process.stderr.write(
    `[pml] warn: ${visibleLine(`${workspace}/.mcp.json`)} sets pml's environment in ways you have not trusted, so pml ignores them (as if unset):\n` +
      ignored.map((c) => `  - ${grantOf(c.v).text}\n`).join("") +
      (ignored.some((c) => weakeningOf(c.v.name)!.early)
        ? "What acted in pml as it started cannot be undone: pml only keeps it from what it starts. Remove it from .mcp.json unless you put it there.\n"
        : "") +
      `To review and trust them: run \`pml trust\` in ${visibleLine(workspace)} (\`pml trust --yes\` in scripts).\n`,
  );
}
