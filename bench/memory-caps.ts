// The synthetic capabilities the memory benches search among (one seeded sequence per generator:
// the same records, ids included, on every run), the 72 target capabilities the request sets look
// for (bench/memory-intents.ts), and the tools discover ranks with them, as the gateway offers
// them in a fresh workspace. Used by bench/memory.ts and bench/discover-e2e.ts.
import { codeHash } from "../src/memory/code-hash.ts";
import { checkName } from "../src/memory/names.ts";
import { changesThings, type ToolEntry } from "../src/memory/search-docs.ts";
import type { SqliteCapabilityStore } from "../src/memory/sqlite-store.ts";
import type { CaptureInput, Scope } from "../src/memory/store.ts";
import { builtinCatalog, DEMO_SERVERS } from "../src/registry/catalog.ts";
import { builtinModules } from "../src/sandbox/builtins/builtins.ts";
import { TARGETS } from "./memory-intents.ts";

const VERBS = [
  "read",
  "write",
  "list",
  "copy",
  "move",
  "delete",
  "parse",
  "convert",
  "validate",
  "format",
  "merge",
  "split",
  "sort",
  "filter",
  "count",
  "fetch",
  "send",
  "sync",
  "upload",
  "download",
  "generate",
  "render",
  "check",
  "compute",
  "extract",
  "compress",
  "archive",
  "scan",
  "index",
  "search",
  "update",
  "create",
  "remove",
  "summarize",
  "translate",
  "classify",
  "export",
  "import",
  "backup",
  "restore",
  "lint",
  "test",
  "build",
  "deploy",
  "publish",
  "notify",
  "schedule",
  "monitor",
  "rename",
  "resize",
];
const OBJECTS = [
  "file",
  "json file",
  "yaml config",
  "csv report",
  "log file",
  "image",
  "pdf",
  "directory",
  "database table",
  "sql query",
  "git commit",
  "branch",
  "tag",
  "pull request",
  "issue",
  "api response",
  "webhook payload",
  "user record",
  "invoice",
  "order",
  "email",
  "slack message",
  "markdown document",
  "html page",
  "url",
  "cookie",
  "token",
  "secret",
  "environment variable",
  "package",
  "dependency",
  "docker image",
  "container",
  "process",
  "port",
  "cron job",
  "metric",
  "dashboard",
  "chart",
  "translation",
  "sentence",
  "paragraph",
  "embedding",
  "prompt",
  "model output",
  "changelog",
  "test result",
  "coverage report",
  "schema",
  "migration",
];
const QUALS = [
  "for the build",
  "in the workspace",
  "from the api",
  "with retries",
  "as a table",
  "in batches",
  "by date",
  "for each user",
  "on the staging server",
  "into the cache",
  "for the weekly report",
  "with a progress bar",
  "for the admin panel",
  "using the config",
  "before deploy",
  "after the nightly job",
  "for customers",
  "in parallel",
  "with logging",
  "for the mobile app",
];
const NS_TOOLS: Record<string, string[]> = {
  fs: ["filesystem:read_file", "filesystem:write_file", "filesystem:search_files"],
  git: ["shell:exec"],
  shell: ["shell:exec"],
  db: ["sqlite:query"],
  api: ["fetch:fetch"],
  ai: ["ai:complete"],
  transform: [],
  util: [],
};
const NSS = Object.keys(NS_TOOLS);

/** Records for `scope`: `fill` continues one sequence (seed 42) across calls, `targets` are the 72 targets. */
export function capabilityGenerator(scope: Scope) {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
  const synthetic = (i: number): CaptureInput => {
    const ns = pick(NSS);
    const verb = pick(VERBS);
    const obj = pick(OBJECTS);
    const intent = `${verb} ${rnd() < 0.5 ? "the " : ""}${obj} ${pick(QUALS)}`;
    const action = `${verb}_${obj.split(" ").join("_")}_v${i}`;
    const tools = NS_TOOLS[ns]!.filter(() => rnd() < 0.6);
    const code = `// ${intent}\nreturn ${JSON.stringify(intent)} + ${i};`;
    return capture(scope, { namespace: ns, action }, code, intent, tools, [pick(["path", "name", "id", "items", "text", "url", "limit"])]);
  };
  return {
    async fill(store: SqliteCapabilityStore, n: number, from = 0): Promise<void> {
      store.db.transaction(() => {
        for (let i = from; i < from + n; i++) void store.capture(synthetic(i));
      })();
    },
    targets(): CaptureInput[] {
      return TARGETS.map((t) => {
        const checked = checkName(t.name);
        if (!checked.ok) throw new Error(`${t.name}: ${checked.error}`);
        return capture(scope, checked.name, `return ${JSON.stringify(t.name)};`, t.intent, t.tools, t.params);
      });
    },
  };
}

function capture(scope: Scope, name: { namespace: string; action: string }, code: string, intent: string, tools: string[], params: string[]): CaptureInput {
  const args = Object.fromEntries(params.map((p) => [p, "x"]));
  return {
    scope,
    name,
    code,
    code_hash: codeHash(code),
    intent,
    description: intent,
    parameters_schema: { type: "object", properties: Object.fromEntries(params.map((p) => [p, { type: "string" }])) },
    default_args: args,
    tools_used: tools,
    routing: "local",
    routing_explicit: false,
    by: "bench",
    latency_ms: 1,
  };
}

/** The catalog's and built-in modules' tools and pml's standard library, as discover is given them. */
export async function benchTools(): Promise<ToolEntry[]> {
  const tools: ToolEntry[] = [];
  for (const [ns, d] of Object.entries({ ...builtinCatalog, ...builtinModules() }))
    for (const t of d.tools ?? [])
      tools.push({
        ns,
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema as Record<string, unknown>,
        // As the gateway offers them in a fresh workspace: demo servers marked, catalog servers not set up yet.
        demo: DEMO_SERVERS.has(ns),
        enabled: !Object.hasOwn(builtinCatalog, ns),
        changes: changesThings(t.annotations),
      });
  // pml's own standard library, as the gateway offers it to discover (own: ranked below task tools).
  for (const [ns, list] of Object.entries(await stdlibTools()))
    for (const t of list) tools.push({ ns, name: t.info.name, description: t.info.description, inputSchema: t.info.inputSchema as Record<string, unknown>, own: true });
  return tools;
}

async function stdlibTools() {
  const dir = "../src/gateway/tools";
  const names = { dns: ["lookup", "query", "whois", "history", "rename", "tag", "fork"], meta: ["tools", "servers", "stats"], learn: ["save", "curate", "feedback"] };
  const out: Record<string, Array<{ info: { name: string; description?: string; inputSchema: unknown } }>> = {};
  for (const [ns, list] of Object.entries(names)) out[ns] = await Promise.all(list.map(async (n) => (await import(`${dir}/${ns}/${n}.ts`))[n]));
  return out;
}
