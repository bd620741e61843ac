// Tool ids (`ns:action`, in config, permissions, logs) vs wire names (`ns__action`: MCP allows only
// A-Z a-z 0-9 _ - . in tool names, the Anthropic API only [a-zA-Z0-9_-]{1,64}, and some clients reject dots).
// Clients see `mcp__pml__<wire>` and the Anthropic API caps names at 64, so wire names stay <= 54.

const MAX_WIRE = 64 - "mcp__pml__".length;

export interface ToolId {
  ns: string;
  action: string;
}

export function parseToolId(id: string): ToolId | undefined {
  const i = id.indexOf(":");
  if (i <= 0 || i === id.length - 1) return undefined;
  return { ns: id.slice(0, i), action: id.slice(i + 1) };
}

export function formatToolId(ns: string, action: string): string {
  return `${ns}:${action}`;
}

const texts = new WeakMap<ToolId, string>();

/** formatToolId of an id, made once per ToolId object: a client's calls reuse theirs (see
 * tool-host.ts), and the proxy's hot path keys maps with it several times per call (a new joined
 * string each time was built, flattened and hashed again). */
export function toolIdText(id: ToolId): string {
  let text = texts.get(id);
  if (text === undefined) texts.set(id, (text = formatToolId(id.ns, id.action)));
  return text;
}

/** `ns:action` or `ns__action` -> {ns, action}; undefined for a name with neither form. */
export function parseToolName(name: string): ToolId | undefined {
  const id = parseToolId(name) ?? parseWire(name);
  // Capabilities have a namespace of their own: `cap__fs__read_json` is the tool id `cap:fs:read_json`.
  if (id?.ns === "cap" && !id.action.includes(":")) return { ns: id.ns, action: id.action.replace("__", ":") };
  return id;
}

function parseWire(name: string): ToolId | undefined {
  const i = name.indexOf("__");
  if (i <= 0 || i + 2 >= name.length) return undefined;
  return { ns: name.slice(0, i), action: name.slice(i + 2) };
}

/** The wire name for a tool; characters outside [A-Za-z0-9_-] become `_`, long names get a hash tail. */
export function wireName(ns: string, action: string): string {
  const raw = `${ns}__${action}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (raw.length <= MAX_WIRE) return raw;
  const hash = Bun.hash(raw).toString(36).slice(0, 6);
  return `${raw.slice(0, MAX_WIRE - 7)}_${hash}`;
}
