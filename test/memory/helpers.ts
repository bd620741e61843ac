// A real pml (compiled binary) on a temp workspace and PML_HOME, and a look at its memory.db.
import { Database } from "bun:sqlite";
import { codeHash } from "../../src/memory/code-hash.ts";
import { memorySettings } from "../../src/memory/memory-settings.ts";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import type { CaptureInput } from "../../src/memory/store.ts";
import { join } from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";
import { parseDiscover } from "../helpers/discover.ts";
import { waitFor } from "../helpers/wait.ts";

export const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");

export interface MemoryFixture {
  ws: string;
  home: string;
  /** A pml on the fixture's workspace, or on `workspace` (another one sharing the fixture's PML_HOME). */
  connect(cfg?: Record<string, unknown>, workspace?: string): Promise<{ client: import("@modelcontextprotocol/sdk/client/index.js").Client; listChanged: () => number }>;
  db(): Database;
  cleanup(): Promise<void>;
}

export function memoryFixture(): MemoryFixture {
  const ws = tempDir("pml-mem-ws-");
  const home = tempDir("pml-mem-home-");
  const closers: Array<() => Promise<void>> = [];
  const dbs: Database[] = [];
  return {
    ws: ws.path,
    home: home.path,
    async connect(cfg = { permissions: { allow: ["filesystem"] } }, workspace = ws.path) {
      await writeTrustedConfig(workspace, cfg, home.path);
      const c = await sdkClient(entries.binary, { cwd: workspace, env: testEnv({ PML_WORKSPACE: workspace, PML_HOME: home.path }) });
      let changed = 0;
      c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      closers.push(() => c.transport.close());
      return { client: c.client, listChanged: () => changed };
    },
    db() {
      const db = new Database(join(home.path, "memory.db"), { readonly: true });
      dbs.push(db);
      return db;
    },
    async cleanup() {
      for (const db of dbs) db.close();
      for (const c of closers) await c().catch(() => {});
      ws.cleanup();
      home.cleanup();
    },
  };
}

export function until(pred: () => boolean, timeoutMs = 5000): Promise<void> {
  return waitFor(pred, { timeoutMs });
}

/** A capability as a store saves it (SqliteCapabilityStore.capture), with what tests rarely vary filled in. */
export function captureInput(scope: CaptureInput["scope"], name: { namespace: string; action: string }, fields: Partial<CaptureInput> & { intent: string }): CaptureInput {
  const code = fields.code ?? "return 1;";
  return {
    scope,
    name,
    code,
    code_hash: codeHash(code),
    description: fields.intent,
    parameters_schema: { type: "object" },
    default_args: {},
    tools_used: [],
    routing: "local",
    routing_explicit: false,
    by: "test",
    latency_ms: 1,
    ...fields,
  };
}

/** A memory.db of its own in a temp folder (no pml process), with the scope and settings a
 * CapabilityDiscovery over it is asked with. */
export function storeFixture(prefix: string) {
  const dir = tempDir(prefix);
  const store = new SqliteCapabilityStore(join(dir.path, "memory.db"));
  const scope = { org: "local", project: "t", owner: dir.path };
  const settings = { ...memorySettings({} as Parameters<typeof memorySettings>[0], dir.path), scope };
  return {
    dir: dir.path,
    store,
    scope,
    settings,
    cleanup: () => {
      store.close();
      dir.cleanup();
    },
  };
}

/** A discover result as a test reads it: its id and match label. */
export interface MatchResult {
  id: string;
  match: "strong" | "fair" | "weak";
}

/** Saves each `[name, intent]` (with its code and a run's args, else code returning its name) through
 * `execute` on a pml of the fixture, and returns a function that asks it `discover`. */
export async function saved(
  fx: MemoryFixture,
  caps: Array<[string, string] | [string, string, { code: string; args?: Record<string, unknown> }]>,
): Promise<(query: string) => Promise<MatchResult[]>> {
  const { client } = await fx.connect();
  for (const [name, intent, run] of caps) {
    const code = run?.code ?? `return ${JSON.stringify({ capability: name })};`;
    const r: any = await client.callTool({ name: "execute", arguments: { code, intent, name, ...(run?.args ? { args: run.args } : {}) } });
    if (r.isError) throw new Error(text(r));
  }
  return async (query) => parseDiscover(text(await client.callTool({ name: "discover", arguments: { query } }))).results;
}

export const matchOf = (results: MatchResult[], id: string) => results.find((r) => r.id === id)?.match;
