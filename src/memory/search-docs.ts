// What discover reads of a capability record and of a tool: the tools offered beside the
// capabilities, the words indexed (a SearchDoc for search.ts) and the text a vector is made from
// (meaning.ts).
import type { SearchDoc } from "./search.ts";
import type { SearchRecord } from "./store.ts";

/** A tool's description is indexed this far: a server or registry entry may send pages (one of
 * the catalog's is 2.8k characters), which say little more and cost every change of the tool list. */
const TOOL_DESCRIPTION_CHARS = 1000;

/** A real tool offered to `discover` beside the capabilities. */
export interface ToolEntry {
  ns: string;
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  /** pml's own (dns, meta, learn): ranked below task tools unless the request is about capabilities. */
  own?: boolean;
  /** A demo or test server's (registry/catalog.ts DEMO_SERVERS): ranked below task tools unless the request names it. */
  demo?: boolean;
  /** false: a catalog server the user has not enabled or installed (a little below one they have). */
  enabled?: boolean;
  /** Its annotations say it changes things (changesThings): neither it nor a capability calling it
   * answers a question (kind-fit.ts). */
  changes?: boolean;
}

/** Whether a tool's MCP annotations say it changes things (destructive, or explicitly not read-only).
 * Not an open-world tool (a shell, a network call): it may do anything, and whether it changed
 * something is said by the code that called it (`git log` through `shell:exec` changes nothing). */
export const changesThings = (a: { destructiveHint?: unknown; readOnlyHint?: unknown; openWorldHint?: unknown } | undefined) =>
  a?.openWorldHint !== true && (a?.destructiveHint === true || a?.readOnlyHint === false);

export function capabilityDoc(key: string, c: SearchRecord): SearchDoc {
  return {
    key,
    name: c.named ? `${c.namespace} ${c.action}` : "",
    intent: c.intent,
    description: c.description === c.intent ? "" : c.description,
    tools: c.tools_used,
    params: c.params,
  };
}

export function toolDoc(key: string, t: ToolEntry): SearchDoc {
  const props = (t.inputSchema?.properties ?? {}) as Record<string, unknown>;
  return { key, name: `${t.ns} ${t.name}`, description: t.description?.slice(0, TOOL_DESCRIPTION_CHARS), params: Object.keys(props) };
}

/**
 * What of a tool's description its vector is made from: the first sentence, at most 30 words. Tool
 * descriptions run to pages; the word-by-word alignment would find some word near any request in
 * them, and a capability's intent, which it competes with, is one sentence.
 */
export function toolMeaningText(t: ToolEntry): string {
  const text = t.description ?? "";
  const first = /^[\s\S]*?[.!?](\s|$)/.exec(text)?.[0] ?? text;
  return `${t.ns} ${t.name}. ${first.split(/\s+/).slice(0, 30).join(" ")}`;
}

/** Without a tool of a server not set up whose twin (a tool of the same name, another server: the
 * catalog's filesystem server beside the built-in one) is in the list too: one answer slot each,
 * not two lines saying the same thing. `nameOf`: a tool's name by key (undefined: not a tool). */
export function withoutTwins<H extends { key: string }>(hits: H[], nameOf: (key: string) => string | undefined, notEnabled: ReadonlySet<string>): H[] {
  const setUp = new Set(hits.filter((h) => !notEnabled.has(h.key)).map((h) => nameOf(h.key)));
  const seen = new Set<string>();
  return hits.filter((h) => {
    const n = nameOf(h.key);
    if (n === undefined) return true;
    const twin = notEnabled.has(h.key) && (seen.has(n) || setUp.has(n));
    seen.add(n);
    return !twin;
  });
}
