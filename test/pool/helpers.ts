// Shared bits for pool and loader tests: launch specs for the fixture server and the real npm
// servers (run from node_modules with the same runtime pml uses), and process liveness checks.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CallContext } from "../../src/mcp/tool-result.ts";
import type { LaunchSpec } from "../../src/pool/launch.ts";
import { waitFor as waitUntil } from "../helpers/wait.ts";

export const root = resolve(import.meta.dir, "../..");
export const fixtureServer = join(root, "test/fixtures/servers/fixture-server.js");

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, BUN_BE_BUN: "1", ...extra };
}

export function fixtureSpec(flags: string[] = [], env: Record<string, string> = {}): LaunchSpec {
  return { command: process.execPath, args: [fixtureServer, ...flags], env: baseEnv(env) };
}

/** A real @modelcontextprotocol server from node_modules (devDependency), run by bun. */
export function npmServerSpec(name: "memory" | "everything" | "filesystem" | "sequential-thinking", args: string[] = [], env: Record<string, string> = {}): LaunchSpec {
  const script = join(root, "node_modules/@modelcontextprotocol", `server-${name}`, "dist/index.js");
  return { command: process.execPath, args: [script, ...args], env: baseEnv(env) };
}

export function ctx(over: Partial<CallContext> = {}): CallContext {
  return { signal: new AbortController().signal, progress() {}, ...over };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A zombie (exited, not yet reaped by its new parent) is dead for our purpose.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return true;
  }
}

/** Polls until `cond` holds; fails after `ms` (generous: this is not a timing assertion). */
export function waitFor(cond: () => boolean | Promise<boolean>, ms = 15000, what = "condition"): Promise<void> {
  return waitUntil(cond, { timeoutMs: ms, what });
}

export function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((c) => c.text ?? "").join("");
}
