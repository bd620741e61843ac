// discover: tools and learned capabilities for a request in the user's words, one namespace's
// tools with their schemas, or the namespaces pml can reach.
import * as v from "valibot";
import type { ProjectConfig } from "../../../config/pml-json.ts";
import { memorySettings } from "../../../memory/memory.ts";
import { boundQuery } from "../../../memory/discover.ts";
import { noFitNote } from "../../../memory/found.ts";
import type { TeamHit } from "../../../memory/team.ts";
import type { Resolved } from "../../../registry/resolved.ts";
import type { Session } from "../../../mcp/session.ts";
import { defineTool } from "../define-tool.ts";
import { integer, text } from "../schema.ts";
import { jsonResult, type MetaContext, type MetaDeps } from "./context.ts";
import { discoverAnswer } from "./discover-answer.ts";
import { rankedTools } from "./discover-tools.ts";
import { heldSummary } from "../../../policy/tool-change-text.ts";

export const discover = defineTool({
  name: "discover",
  title: "Find tools",
  description:
    "Finds tools and learned capabilities. `query`: say in your own words what you want done " +
    '("keep a backup copy of a file before editing it"); returns the best matches, one line each: `tool(parameters) — what it does`, marked [strong] or [fair] when it fits (unmarked: only the nearest found) ' +
    '(cap__ns__action is a capability; "name?" is an optional parameter). Call a result by its tool name, or `call` {tool, arguments}. Fewer results when the best one fits; `limit` for more, `schemas`: true for full input schemas. ' +
    "`namespace`: one namespace's tools with input schemas. Neither: the namespaces pml can reach.",
  annotations: { readOnlyHint: true },
  args: {
    query: v.optional(text("what you want to do, in your own words")),
    namespace: v.optional(text("one namespace, e.g. memory")),
    limit: v.optional(integer(1, 50, "how many matches for a query (default 5; 2 when the best is strong or fair)")),
    schemas: v.optional(v.pipe(v.boolean(), v.description("with a query: each result's full input schema instead of its parameters in one line"))),
  },
  async run(args, { deps, session, req }: MetaContext) {
    if (args.query?.trim() && args.namespace === undefined) return discoverAnswer(deps, await discoverQuery(deps, session, args.query, args.limit), { schemas: args.schemas });
    const startToList = (r: Resolved) => deps.invoker.startToList(session, r, { signal: req.signal, progress: req.progress, origin: req.origin });
    return jsonResult(await deps.backends.discover(args, req.signal, startToList));
  },
});

/** Results in an answer when no `limit` is given, by how well the best one fits: an agent calls a
 * strong one at once and reads no further, a fair one when nothing is strong; each more result is
 * context it pays for (issue 46: bytes per repeated task). Only the best result can be strong or
 * fair by its margin over the others, so one more is the nearest other way, should it not do; when
 * nothing fits, five nearest (the window the agent reads) to write the code with. On the
 * main and held-out reuse streams 3/3/10 made 19-20% of the "discover, schemas, execute" agent's
 * bytes, 3/3/5 17%, 2/2/5 15-16%; nothing served less. The first of ten ranked, so that what is
 * shown does not depend on how many. */
const DEFAULT_RESULTS = { strong: 2, fair: 2, weak: 5 } as const;
const RANKED = 10;

async function discoverQuery(deps: MetaDeps, session: Session, request: string, limit: number | undefined) {
  const n = limit ?? RANKED;
  // What memory reads of it (a pasted text is cut): the team registry and learning get the same.
  const query = boundQuery(request);
  const tools = rankedTools(deps.backends, await deps.surface.enabledNamespaces());
  const config = await deps.project.config();
  const settings = memorySettings(config, deps.workspace.root);
  // The team registry's hits are ranked with the rest, against the same query (one list).
  const asked = teamMatches(config, deps.workspace.root, query, n);
  const found = await deps.memory.discover(
    settings,
    query,
    tools,
    n,
    asked.then((t) => t.hits),
  );
  const team = await asked;
  const { warning } = found;
  const shown = limit ?? DEFAULT_RESULTS[found.results[0]?.match ?? "weak"];
  const results = found.results.slice(0, shown);
  const keys = found.keys.slice(0, shown);
  deps.learning.discovered(session, query, results, keys);
  const note = noFitNote(results, found.evidence);
  const held = deps.backends.holds.notes().map((h) => h.id);
  return {
    query,
    ...(note ? { note } : {}),
    results,
    keys,
    ...(held.length ? { held: heldSummary(held) } : {}),
    ...(team.note ? { team_registry: team.note } : {}),
    ...(warning ? { warning } : {}),
  };
}

let teamModule: Promise<typeof import("../../../memory/team.ts")> | undefined;

/** The team registry's capabilities for a query, when cloud.url is one (see memory/team.ts). */
async function teamMatches(config: ProjectConfig, workspace: string, query: string, n: number): Promise<{ hits: TeamHit[]; note?: string }> {
  // Imported on the first discover, not at start-up; an import per request cost more than its look-up.
  teamModule ??= import("../../../memory/team.ts");
  const { searchTeam, teamRegistry } = await teamModule;
  const team = teamRegistry(config, workspace);
  return team ? searchTeam(team, query, n) : { hits: [] };
}
