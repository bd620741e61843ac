// The tools `discover {query}` ranks beside the capabilities, and their input schemas for the
// answer, made again only when what they are made from changed: the known tools (the same objects
// in the same order) and the namespaces tools/list shows. Made per request, they were a tenth of
// what a discover spent in the server outside the ranking (bench/discover-e2e.ts), and the same
// list (the same array) is what tells memory not to index the tools again.
import type { ToolInfo } from "../../../mcp/types.ts";
import { changesThings, type ToolEntry } from "../../../memory/search-docs.ts";
import { builtinCatalog, DEMO_SERVERS } from "../../../registry/catalog.ts";
import type { MetaDeps } from "./context.ts";

type Known = ReadonlyArray<{ ns: string; tool: ToolInfo }>;
type Backends = MetaDeps["backends"];

interface Made {
  known: Known;
  enabled: string;
  tools: readonly ToolEntry[];
  schemas?: ReadonlyMap<string, Record<string, unknown> | undefined>;
}

const made = new WeakMap<Backends, Made>();

const sameKnown = (a: Known, b: Known) => a.length === b.length && a.every((k, i) => k.ns === b[i]!.ns && k.tool === b[i]!.tool);

/** The last list made for these backends when its known tools are the same, else a new one (kept). */
function current(backends: Backends, enabled: string, make: (known: Known) => readonly ToolEntry[]): Made {
  const known = backends.allKnownTools();
  const last = made.get(backends);
  if (last && last.enabled === enabled && sameKnown(last.known, known)) return last;
  const next: Made = { known, enabled, tools: make(known) };
  made.set(backends, next);
  return next;
}

/** The tools as memory ranks them: the same array while nothing they are made from changed. */
export function rankedTools(backends: Backends, enabledNamespaces: readonly string[]): readonly ToolEntry[] {
  const enabled = new Set(enabledNamespaces);
  return current(backends, enabledNamespaces.join("\0"), (known) =>
    known.map(({ ns, tool }) => ({
      ns,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      // pml's own standard library (dns, meta, learn) is about capabilities, not tasks.
      own: backends.servesInProcess(ns),
      demo: DEMO_SERVERS.has(ns),
      // A catalog server offered but not set up (installed, allowed or used) steps back a little.
      enabled: !Object.hasOwn(builtinCatalog, ns) || enabled.has(ns),
      changes: changesThings(tool.annotations),
    })),
  ).tools;
}

/** Each known tool's input schema by `ns:name`: made once per list of known tools. */
export function toolSchemas(backends: Backends): ReadonlyMap<string, Record<string, unknown> | undefined> {
  const last = made.get(backends);
  const known = backends.allKnownTools();
  if (last && sameKnown(last.known, known)) return (last.schemas ??= schemasOf(known));
  return schemasOf(known);
}

const schemasOf = (known: Known) => new Map(known.map(({ ns, tool }) => [`${ns}:${tool.name}`, tool.inputSchema]));
