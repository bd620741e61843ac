// What discover answers for each result (Found), and the notes it carries: why past use lifted it,
// that it is deprecated, where a team capability comes from.
import type { LearnedBoost } from "./associations.ts";
import { fitsByWords, type Match, type MatchEvidence } from "./match-label.ts";
import { capWireName, parseCallName } from "./names.ts";
import type { Deprecation } from "./store.ts";
import type { TeamHit } from "./team.ts";

export interface Found {
  /** What to call: a capability name (`fs:read_json`, `unnamed_1a2b3c4d`) or a tool id (`memory:read_graph`). */
  id: string;
  kind: "capability" | "tool" | "team capability";
  description: string;
  /** Capabilities: the tool to call in tools/list (named ones). */
  tool?: string;
  uses?: string[];
  score: number;
  /** How well it fits the request, from absolute evidence, not rank (match-label.ts). */
  match: Match;
  /** Variants of this capability (its name with another version number) that matched less well. */
  variants?: string[];
  /** Past use lifted it: earlier words that led to a successful call of it (associations.ts). */
  learned?: string;
  /** Deprecated by the user (dns:deprecate): why, and what to call instead; ranked after the rest. */
  deprecated?: string;
  /** Team capabilities: where it comes from (see memory/team.ts TeamHit). */
  fqdn?: string;
  org?: string;
  version?: string;
  by?: string;
}

/** "deprecated: <reason>; use <replacement> instead", as short results show it. */
export function deprecationNote(d: Deprecation): string {
  return `deprecated${d.reason ? `: ${d.reason}` : ""}${d.replacement ? `; use ${d.replacement} instead` : ""}`;
}

/** Shown as a JSON string in the answer; the words were normalised when kept (association-policy.ts). */
export function learnedNote(l: LearnedBoost): string {
  return `found before by: ${JSON.stringify(l.query)}${l.uses > 1 ? ` (${l.uses} uses)` : ""}`;
}

/** A saved capability as discover answers it: its wire name when named, the near-twins it stands for. */
export function capabilityFound(
  c: { name: string; named: boolean; description: string; tools: string[]; deprecated?: string },
  score: number,
  match: Match,
  more: { variants?: string[]; learned?: string },
): Found {
  return {
    id: c.name,
    kind: "capability",
    description: c.description,
    ...(c.named ? { tool: capWireName(parseCallName(c.name)!) } : {}),
    uses: c.tools,
    score,
    match,
    ...(more.variants?.length ? { variants: more.variants } : {}),
    ...(more.learned ? { learned: more.learned } : {}),
    ...(c.deprecated ? { deprecated: c.deprecated } : {}),
  };
}

export function teamFound(h: TeamHit, score: number, match: Match): Found {
  const name = parseCallName(h.name);
  return {
    id: h.name,
    kind: "team capability",
    description: h.description ?? "",
    ...(name ? { tool: capWireName(name) } : {}),
    score,
    match,
    fqdn: h.fqdn,
    ...(h.org !== undefined ? { org: h.org } : {}),
    ...(h.version !== undefined ? { version: h.version } : {}),
    ...(h.by !== undefined ? { by: h.by } : {}),
  };
}

/** When no saved capability fits the request (none marked strong or fair), the answer says so in
 * words, and names the nearest one: unmarked results are only the nearest found (issue 46). Not
 * when one fits by its words but others come as close (twins): then none is sure, not none fits.
 * `evidence`: each result's, in the same order. */
export function noFitNote(results: readonly Found[], evidence: readonly MatchEvidence[]): string | undefined {
  const caps = results.flatMap((r, i) => (r.kind === "tool" ? [] : [{ r, e: evidence[i] }]));
  if (caps.some(({ r }) => r.match !== "weak")) return undefined;
  if (caps.some(({ e }) => e && fitsByWords(e))) return "several saved capabilities fit about as well: none is marked";
  const closest = caps[0]?.r;
  return `no saved capability does this${closest ? `; closest: ${closest.tool ?? closest.id}` : ""}`;
}
