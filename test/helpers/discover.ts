// discover's answer as tests read it: the answer leaves out a result's `id` and `kind` when its tool
// name says them (`cap__fs__read_json` is the capability fs:read_json); parsed here with them filled
// in from the name, so tests compare ids. A result that gives its own keeps them.
import { idOfTool } from "../../src/gateway/tools/pml/discover-answer.ts";

export function withId<T extends Record<string, unknown>>(r: T): T & { id: string; kind: string } {
  const says = typeof r?.tool === "string" ? idOfTool(r.tool) : undefined;
  return { ...says, ...r } as T & { id: string; kind: string };
}

/** discover's answer text parsed, each result with its id and kind. */
export function parseDiscover(text: string): any {
  const answer = JSON.parse(text);
  if (Array.isArray(answer?.results)) answer.results = answer.results.map(withId);
  return answer;
}
