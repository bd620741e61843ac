// What discover's index reads of a capability record and of a tool: the words (a SearchDoc for
// search.ts) and the text its vector is made from (meaning.ts).
import type { SearchDoc } from "./search.ts";
import type { SearchRecord } from "./store.ts";

/** A tool's description is indexed this far: a server or registry entry may send pages (one of
 * the catalog's is 2.8k characters), which say little more and cost every change of the tool list. */
const TOOL_DESCRIPTION_CHARS = 1000;

/** What of a tool is read (discover.ts ToolEntry). */
interface Tool {
  ns: string;
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

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

export function toolDoc(key: string, t: Tool): SearchDoc {
  const props = (t.inputSchema?.properties ?? {}) as Record<string, unknown>;
  return { key, name: `${t.ns} ${t.name}`, description: t.description?.slice(0, TOOL_DESCRIPTION_CHARS), params: Object.keys(props) };
}

/**
 * What of a tool's description its vector is made from: the first sentence, at most 30 words. Tool
 * descriptions run to pages; the word-by-word alignment would find some word near any request in
 * them, and a capability's intent, which it competes with, is one sentence.
 */
export function toolMeaningText(t: Tool): string {
  const text = t.description ?? "";
  const first = /^[\s\S]*?[.!?](\s|$)/.exec(text)?.[0] ?? text;
  return `${t.ns} ${t.name}. ${first.split(/\s+/).slice(0, 30).join(" ")}`;
}
