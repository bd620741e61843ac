// Tool pinning (rug pulls): a server the user approved can change a tool's description or input
// schema afterwards, and the model would read the new text as the tool's instructions. pml keeps,
// per workspace, what each pinnable server's tools said when first seen (name, description, input
// schema, and a sha256 of them); a tool whose text differs later, or that is new, is held until the
// user accepts the change (`pml ui` Approvals, or an elicitation on the next call). The store lives
// in $PML_HOME, never in the workspace (a cloned repository must not ship its own pins), bound to
// the workspace's real path like the trust record, and is written atomically under a lock.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pmlHome } from "../config/paths.ts";
import { withFileLock, writeFileAtomic } from "../fs/atomic.ts";
import type { ToolInfo } from "../mcp/types.ts";
import type { Descriptor } from "../registry/descriptor.ts";
import { realWorkspace } from "./trust/trust-record.ts";

type Env = Record<string, string | undefined>;

/** What the user approved of one tool: the text the model reads, and its digest. */
export interface PinnedTool {
  digest: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  /** What else the client and the model read of it, when it has any (in the digest too). */
  more?: ToolMore;
}

/** A tool's output schema (its descriptions reach the model like the input schema's) and
 * annotations (a client may treat a tool that says readOnlyHint differently); pml passes both on.
 * Not its title: the client is given pml's own. */
export type ToolMore = Partial<Pick<ToolInfo, "outputSchema" | "annotations">>;

/** A tool whose current text differs from its pin (or that has none: new since the first list). */
export interface HeldTool extends PinnedTool {
  /** The pin it differs from; absent for a tool added after the server's tools were pinned. */
  was?: PinnedTool;
  seen_at: string;
  /** The user refused it (it stays held; the page shows it as refused). */
  refused_at?: string;
}

interface ServerPins {
  tools: Record<string, PinnedTool>;
  held: Record<string, HeldTool>;
}

interface PinFile {
  workspace: string;
  servers: Record<string, ServerPins>;
}

/** A held tool as the page and the messages show it. */
export interface ToolChange extends HeldTool {
  ns: string;
  tool: string;
}

/**
 * Whether a server's tools are pinned here. An npm package pinned by integrity (the catalog's, a
 * registry's) is byte-for-byte the code that was approved: its package pin is its tool pin. A
 * plain command (private_mcps) and a remote server can change what they say at any time.
 */
export function pinsTools(d: Descriptor | { type: string }): boolean {
  if (d.type === "http") return true;
  if (d.type !== "stdio") return false;
  const s = d as Extract<Descriptor, { type: "stdio" }>;
  return !(s.package && (s.integrity || s.file_sha256));
}

/** JSON with keys sorted at every level: the same text for the same value, whatever the order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value ?? null);
}

const digestOf = (text: unknown) => createHash("sha256").update(canonical(text)).digest("hex");
const baseOf = (t: ToolInfo) => ({ name: t.name, description: t.description ?? "", inputSchema: t.inputSchema ?? { type: "object" } });

function moreOf(t: ToolInfo): ToolMore | undefined {
  const more: ToolMore = {};
  if (t.outputSchema !== undefined) more.outputSchema = t.outputSchema;
  if (t.annotations !== undefined) more.annotations = t.annotations;
  return Object.keys(more).length ? more : undefined;
}

/** A tool's pin. Without an output schema or annotations its digest is what pml wrote
 * before it pinned them (so such pins still match). */
export function pinOf(t: ToolInfo): PinnedTool {
  const base = baseOf(t);
  const more = moreOf(t);
  return { digest: digestOf({ ...base, ...more }), description: base.description, inputSchema: base.inputSchema, ...(more ? { more } : {}) };
}

/** A pin written before pml pinned output schemas and annotations, of the same text:
 * what else the tool says now is taken as first seen (once), not held. */
const pinnedBeforeMore = (was: PinnedTool, pin: PinnedTool, t: ToolInfo) => pin.more !== undefined && was.more === undefined && was.digest === digestOf(baseOf(t));

export function pinsPath(workspace: string, env: Env = process.env): string {
  return join(pmlHome(env), "pins", `${createHash("sha256").update(realWorkspace(workspace)).digest("hex").slice(0, 32)}.json`);
}

const own = <T>(o: Record<string, T> | undefined, k: string): T | undefined => (o && Object.hasOwn(o, k) ? o[k] : undefined);
/** Sets an own property whatever the name: a tool or namespace named "__proto__" is one too. */
const put = <T>(o: Record<string, T>, k: string, value: T): void => void Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });

/** The store; empty when none (or unreadable, or another path's under the same digest). */
export function readPins(workspace: string, env: Env = process.env): PinFile {
  const real = realWorkspace(workspace);
  try {
    const parsed = JSON.parse(readFileSync(pinsPath(workspace, env), "utf8")) as Partial<PinFile>;
    if (parsed?.workspace === real && parsed.servers && typeof parsed.servers === "object") return { workspace: real, servers: parsed.servers };
  } catch {
    // none yet
  }
  return { workspace: real, servers: {} };
}

async function updatePins<T>(workspace: string, env: Env, fn: (file: PinFile) => { result: T; changed: boolean }): Promise<T> {
  const path = pinsPath(workspace, env);
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  return withFileLock(path, async () => {
    const file = readPins(workspace, env);
    const { result, changed } = fn(file);
    if (changed) await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    return result;
  });
}

/** Held tools of a server as the store says now (a change accepted elsewhere is gone from it). */
export function heldNow(workspace: string, ns: string, env: Env = process.env): Record<string, HeldTool> {
  return own(readPins(workspace, env).servers, ns)?.held ?? {};
}

/**
 * Compares a server's list with its pins. The first list is pinned as it is (trust on first use,
 * once the user approved using the server); later, a tool whose text changed or that is new is
 * held. A tool gone keeps its pin: back with the text the user approved, it is not asked again;
 * with other text, the user sees the difference from what they approved. `live`: the list the
 * server gave now (a held tool it no longer lists is dropped), not one kept from an earlier
 * session. Returns the held tools and those held just now.
 */
export function checkTools(workspace: string, ns: string, tools: readonly ToolInfo[], live: boolean, env: Env = process.env) {
  return updatePins(workspace, env, (file) => {
    const now = new Date().toISOString();
    const server = own(file.servers, ns);
    if (!server) {
      put(file.servers, ns, { tools: Object.fromEntries(tools.map((t) => [t.name, pinOf(t)])), held: {} });
      return { result: { held: {} as Record<string, HeldTool>, fresh: [] as ToolChange[] }, changed: true };
    }
    const names = new Set(tools.map((t) => t.name));
    // A list from an earlier session may lack what the server lists now: its held tools stay.
    const held: Record<string, HeldTool> = live ? {} : Object.fromEntries(Object.entries(server.held).filter(([name]) => !names.has(name)));
    const fresh: ToolChange[] = [];
    let repinned = false;
    for (const t of tools) {
      const pin = pinOf(t);
      const was = own(server.tools, t.name);
      if (was?.digest === pin.digest) continue;
      if (was && pinnedBeforeMore(was, pin, t)) {
        put(server.tools, t.name, pin);
        repinned = true;
        continue;
      }
      const before = own(server.held, t.name);
      if (before?.digest === pin.digest) put(held, t.name, before);
      else {
        const change: HeldTool = { ...pin, ...(was ? { was } : {}), seen_at: now };
        put(held, t.name, change);
        fresh.push({ ns, tool: t.name, ...change });
      }
    }
    const changed = repinned || canonical(server.held) !== canonical(held);
    server.held = held;
    return { result: { held, fresh }, changed };
  });
}

/** The user accepted the change (the page, an elicitation): the held text becomes the pin. False
 * when it is no longer held with that digest (the server changed again: shown anew). */
export function acceptChange(workspace: string, ns: string, tool: string, digest: string, env: Env = process.env): Promise<boolean> {
  return updatePins(workspace, env, (file) => {
    const server = own(file.servers, ns);
    const held = own(server?.held, tool);
    if (!server || held?.digest !== digest) return { result: false, changed: false };
    put(server.tools, tool, { digest: held.digest, description: held.description, inputSchema: held.inputSchema, ...(held.more ? { more: held.more } : {}) });
    delete server.held[tool];
    return { result: true, changed: true };
  });
}

/** The user refused it: it stays held, marked refused. */
export function refuseChange(workspace: string, ns: string, tool: string, digest: string, env: Env = process.env): Promise<boolean> {
  return updatePins(workspace, env, (file) => {
    const held = own(own(file.servers, ns)?.held, tool);
    if (held?.digest !== digest) return { result: false, changed: false };
    held.refused_at = new Date().toISOString();
    return { result: true, changed: true };
  });
}

/** Every held tool of the workspace, for `pml ui`. */
export function heldChanges(workspace: string, env: Env = process.env): ToolChange[] {
  const out: ToolChange[] = [];
  for (const [ns, server] of Object.entries(readPins(workspace, env).servers)) for (const [tool, held] of Object.entries(server?.held ?? {})) out.push({ ns, tool, ...held });
  return out;
}

/** What changed, in words: "its description changed", "it is new". */
export function whatChanged(h: HeldTool): string {
  if (!h.was) return "it is new since you approved this server's tools";
  const was = h.was;
  const differs = (k: keyof ToolMore) => canonical(was.more?.[k]) !== canonical(h.more?.[k]);
  const parts = [
    was.description !== h.description && "description",
    canonical(was.inputSchema) !== canonical(h.inputSchema) && "input schema",
    differs("outputSchema") && "output schema",
    differs("annotations") && "annotations",
  ].filter(Boolean);
  const said = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  return `its ${said || "definition"} changed since you approved it`;
}
