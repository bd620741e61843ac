// The cloud half of `pml registry serve`: POST /mcp/tools/call runs a cloud-routed module from the
// data directory in the sandbox. Wire contract: see src/cloud/call.ts (Bearer PML_API_KEY,
// X-PML-Env-<NAME> headers carrying the caller's own keys). Those keys belong to this request
// only: they go into the module's ctx.env for this call, in a fresh engine (a warm one could keep
// a previous caller's ctx in a global), and are never stored or logged.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BYOK_HEADER_PREFIX } from "../cloud/call.ts";
import { errorResponse, ErrorCode, type Id } from "../mcp/jsonrpc.ts";
import { errorResult, valueResult } from "../mcp/tool-result.ts";
import type { CallToolResult } from "../mcp/types.ts";
import type { ModuleDescriptor } from "../registry/descriptor.ts";
import { isValidFqdn } from "../registry/fqdn.ts";
import type { ApiKeys } from "./api-keys.ts";
import type { RegistryStore } from "./store.ts";

export interface RunModuleRequest {
  fqdn: string;
  descriptor: ModuleDescriptor;
  action: string;
  args: Record<string, unknown>;
  /** Exactly the declared env_required keys this request carried. */
  env: Record<string, string>;
  signal: AbortSignal;
}

export interface ToolsCallDeps {
  store: RegistryStore;
  /** Accepted PML API keys (`--api-key`, `--api-keys-file`). Empty: every call is refused. */
  apiKeys: ApiKeys;
  /** Runs one module tool; default: the sandbox (fresh engine, no fs/exec, fetch to the module's declared hosts). */
  runModule?: (req: RunModuleRequest) => Promise<CallToolResult>;
}

const MAX_BODY = 8 * 1024 * 1024;

export async function handleToolsCall(req: Request, deps: ToolsCallDeps): Promise<Response> {
  const caller = deps.apiKeys.identify(req.headers.get("authorization"));
  if (!caller.ok)
    return rpc(errorResponse(null, -32001, "Unauthorized: send Authorization: Bearer <PML_API_KEY> with a key this server accepts"), 401, {
      "www-authenticate": 'Bearer realm="pml"',
    });

  const len = Number(req.headers.get("content-length") ?? 0);
  if (len > MAX_BODY) return rpc(errorResponse(null, ErrorCode.InvalidRequest, "request too large (limit 8 MiB)"), 413);
  let msg: any;
  try {
    msg = JSON.parse(await req.text());
  } catch (e) {
    return rpc(errorResponse(null, ErrorCode.ParseError, `Parse error: ${(e as Error).message}`), 400);
  }
  const id: Id | null = typeof msg?.id === "string" || typeof msg?.id === "number" ? msg.id : null;
  if (!msg || typeof msg !== "object" || Array.isArray(msg) || msg.jsonrpc !== "2.0" || id === null)
    return rpc(errorResponse(id, ErrorCode.InvalidRequest, 'expected one JSON-RPC request: {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {...}}'), 400);
  if (msg.method !== "tools/call") return rpc(errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${msg.method} (this endpoint takes tools/call)`));

  const name = msg.params?.name;
  const args = msg.params?.arguments ?? {};
  if (typeof name !== "string") return rpc(errorResponse(id, ErrorCode.InvalidParams, 'tools/call needs "name": "namespace:action"'));
  if (args === null || typeof args !== "object" || Array.isArray(args)) return rpc(errorResponse(id, ErrorCode.InvalidParams, '"arguments" must be an object'));
  const sep = name.lastIndexOf(":");
  const fqdn = sep > 0 ? name.slice(0, sep) : "";
  const action = sep > 0 ? name.slice(sep + 1) : "";
  if (!fqdn || !action || !isValidFqdn(fqdn)) return rpc(errorResponse(id, ErrorCode.InvalidParams, `tool name ${JSON.stringify(name)} is not "namespace:action"`));

  const entry = await deps.store.get(fqdn, caller.identity);
  if (!entry) return rpc(errorResponse(id, ErrorCode.InvalidParams, `unknown tool ${name}: '${fqdn}' is not in this registry`));
  if (!/typescript|javascript/.test(entry.contentType))
    return rpc(errorResponse(id, ErrorCode.InvalidParams, `'${fqdn}' is a descriptor, not module code: this server runs only modules (<name>.ts)`));

  let descriptor: ModuleDescriptor;
  try {
    const { compileModule } = await import("../registry/module-code.ts");
    const loader = entry.contentType.includes("typescript") ? "ts" : "js";
    descriptor = compileModule(new TextDecoder().decode(entry.body), { registryUrl: "this server", fqdn }, loader);
  } catch (e) {
    return rpc(errorResponse(id, ErrorCode.InternalError, (e as Error).message));
  }
  if (!descriptor.tools.some((t) => t.name === action))
    return rpc(errorResponse(id, ErrorCode.InvalidParams, `unknown tool ${name}: '${fqdn}' has ${descriptor.tools.map((t) => t.name).join(", ")}`));

  // Only the keys the module declares reach it; any other X-PML-Env-* header is ignored.
  const env: Record<string, string> = {};
  const missing: string[] = [];
  for (const key of descriptor.env_required ?? []) {
    const value = req.headers.get(`${BYOK_HEADER_PREFIX}${key}`);
    if (value === null || value === "") missing.push(key);
    else env[key] = value;
  }
  if (missing.length)
    return rpc({
      jsonrpc: "2.0",
      id,
      result: errorResult(
        `${name} needs ${missing.join(", ")}: set ${missing.length > 1 ? "them" : "it"} in your environment or workspace .env; pml forwards the declared keys your .pml.json env_grants (or an approval) gives this tool.`,
      ),
    });

  const run = deps.runModule ?? runInSandbox;
  try {
    const result = await run({ fqdn, descriptor, action, args, env, signal: req.signal });
    return rpc({ jsonrpc: "2.0", id, result });
  } catch (e) {
    // A failing tool is a tool result; the message is the module's or the sandbox's, never the env.
    return rpc({ jsonrpc: "2.0", id, result: errorResult(`${name} failed: ${(e as Error)?.message ?? e}`) });
  }
}

function rpc(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}

let emptyWorkspace: string | undefined;

async function runInSandbox(r: RunModuleRequest): Promise<CallToolResult> {
  const [{ runModuleFunction }, { createHost }] = await Promise.all([import("../sandbox/module-runner.ts"), import("../sandbox/host-functions.ts")]);
  // Cloud modules see no files of the server: their fs is an empty directory, writes refused.
  emptyWorkspace ??= mkdtempSync(join(tmpdir(), "pml-cloud-ws-"));
  const host = createHost({ workspace: emptyWorkspace, tool: `${r.fqdn}:${r.action}`, grants: { write: false, exec: false, net: r.descriptor.permissions?.net ?? [] } });
  const value = await runModuleFunction({ code: r.descriptor.code, fn: r.action, args: r.args, ctx: { env: r.env, host }, signal: r.signal, reuse: false });
  return valueResult(value);
}

/** The route `pml registry serve` mounts next to the registry API. */
export function toolsCallRoute(deps: ToolsCallDeps): { method: string; path: string; handler: (req: Request) => Promise<Response> } {
  return { method: "POST", path: "/mcp/tools/call", handler: (req) => handleToolsCall(req, deps) };
}
