// Which directory pml treats as the project. Claude Code starts stdio servers in the directory
// `claude` was started in and sets CLAUDE_PROJECT_DIR; other clients may start us anywhere.
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../errors.ts";

export type WorkspaceSource = "PML_WORKSPACE" | "CLAUDE_PROJECT_DIR" | "marker" | "cwd";

export interface Workspace {
  /** Absolute real path (symlinks resolved) of the project directory. */
  root: string;
  source: WorkspaceSource;
  /** Something the user should know (the caller logs it to stderr); resolution still succeeded. */
  warning?: string;
}

/** Files or folders whose presence marks a project root, nearest first. */
export const WORKSPACE_MARKERS = [".pml.json", ".mcp.json", ".git", "package.json", "deno.json"] as const;

export interface ResolveWorkspaceOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export function resolveWorkspace(opts: ResolveWorkspaceOptions = {}): Workspace {
  const env = opts.env ?? process.env;
  const cwd = resolve(opts.cwd ?? process.cwd());
  const warnings: string[] = [];

  const fromEnv = (name: "PML_WORKSPACE" | "CLAUDE_PROJECT_DIR"): string | undefined => {
    const value = env[name]?.trim();
    if (!value) return undefined;
    if (value.includes("${")) {
      // e.g. "${workspaceFolder}" from a VS Code-style config: Claude Code passes it unexpanded.
      warnings.push(
        `${name} is "${value}", an unexpanded variable (Claude Code does not expand \${workspaceFolder}); ignoring it. ` +
          `Remove it from .mcp.json, or set ${name} to an absolute path.`,
      );
      return undefined;
    }
    return resolve(cwd, value);
  };

  const done = (root: string, source: WorkspaceSource): Workspace => {
    const ws: Workspace = { root: realpathSync(root), source };
    if (warnings.length) ws.warning = warnings.join("\n");
    return ws;
  };

  const explicit = fromEnv("PML_WORKSPACE");
  if (explicit !== undefined) {
    const problem = dirProblem(explicit);
    if (problem) {
      throw new ConfigError(
        `PML_WORKSPACE is set to ${JSON.stringify(env.PML_WORKSPACE)}, which ${problem}. ` +
          `Set it to the project directory (an existing folder), or unset it to let pml find the project.`,
      );
    }
    return done(explicit, "PML_WORKSPACE");
  }

  const claude = fromEnv("CLAUDE_PROJECT_DIR");
  if (claude !== undefined) {
    const problem = dirProblem(claude);
    if (!problem) return done(claude, "CLAUDE_PROJECT_DIR");
    warnings.push(`CLAUDE_PROJECT_DIR (${claude}) ${problem}; looking for the project from ${cwd} instead.`);
  }

  const start = dirProblem(cwd) ? cwd : realpathSync(cwd);
  const marked = findMarkedDir(start);
  if (marked) return done(marked, "marker");

  warnings.push(
    `no project marker (${WORKSPACE_MARKERS.join(", ")}) in ${start} or any parent; using it as the workspace. ` + `Set PML_WORKSPACE to the project directory to choose another.`,
  );
  if (dirProblem(cwd)) throw new ConfigError(`the current directory ${cwd} ${dirProblem(cwd)}; run pml from the project directory or set PML_WORKSPACE.`);
  return done(cwd, "cwd");
}

function dirProblem(path: string): string | undefined {
  try {
    if (!statSync(path).isDirectory()) return "is not a directory";
    return undefined;
  } catch (e: any) {
    return e?.code === "ENOENT" ? "does not exist" : `cannot be read (${e?.code ?? e})`;
  }
}

function findMarkedDir(start: string): string | undefined {
  for (let dir = start; ; ) {
    if (WORKSPACE_MARKERS.some((m) => existsSync(join(dir, m)))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
