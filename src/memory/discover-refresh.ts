// Brings a workspace's DiscoverState (discover-state.ts) up to date, the only code that writes it:
// the records changed in the store since the last read (all of them the first time, so records
// saved by other pml processes are found too), the tools offered beside them, the team registry's
// hits. Each goes to the word index and to both vector sides (word vectors, the embeddings provider).
import { type CapSummary, capKey, type DiscoverState, NO_KINDS, type ToolSet, toolKey } from "./discover-state.ts";
import { firstLoad, readOne } from "./first-load.ts";
import { deprecationNote } from "./found.ts";
import { parseCallName } from "./names.ts";
import type { ProviderSlot } from "./provider-slot.ts";
import { capabilityDoc, toolDoc, toolMeaningText, type ToolEntry } from "./search-docs.ts";
import { type AnswerKind, type CapabilityStore, type SearchRecord, USER_OWNER } from "./store.ts";
import type { TeamHit } from "./team.ts";

/** Shared by every summary of a record that uses no tool (frozen: never changed through a result). */
const NO_TOOLS = Object.freeze([]) as unknown as string[];
/** One string per owner and one list per combination of kinds, shared by the records holding it,
 * not a copy per record (each row reads its own): 10k records hold a few of each. Process-wide:
 * bounded by the owners and the combinations there are. */
const owners = new Map<string, string>();
const kindLists = new Map<string, readonly AnswerKind[]>();

function kindList(kinds: readonly AnswerKind[]): readonly AnswerKind[] {
  if (!kinds.length) return NO_KINDS;
  const id = kinds.join(",");
  let list = kindLists.get(id);
  if (!list) kindLists.set(id, (list = Object.freeze([...kinds])));
  return list;
}

function summary(c: SearchRecord): CapSummary {
  let owner = owners.get(c.owner);
  if (owner === undefined) owners.set(c.owner, (owner = c.owner));
  return {
    owner,
    name: c.display_name,
    named: c.named,
    description: c.description || c.intent,
    ...(c.description && c.intent && c.intent !== c.description ? { intent: c.intent } : {}),
    tools: c.tools_used.length ? c.tools_used : NO_TOOLS,
    returns: kindList(c.returns),
    ...(c.deprecated ? { deprecated: deprecationNote(c.deprecated) } : {}),
  };
}

/** Records changed since the last read into the index; the first read is a first load (first-load.ts). */
export async function refreshCapabilities(state: DiscoverState, store: CapabilityStore, provider: ProviderSlot): Promise<void> {
  if (state.loaded) await readCapabilities(state, store, provider);
  else await firstLoad(() => readCapabilities(state, store, provider));
}

async function readCapabilities(state: DiscoverState, store: CapabilityStore, provider: ProviderSlot): Promise<number> {
  let read = 0;
  await store.searchableSince(state.seq, [state.owner, USER_OWNER], (c) => {
    state.seq = Math.max(state.seq, c.seq);
    const key = capKey(c.id);
    state.changed(key);
    if (c.record_type !== "capability") return;
    state.setCap(key, summary(c));
    state.index.add(capabilityDoc(key, c));
    for (const side of [state.meaning, provider]) side?.record(key, c);
    readOne(++read);
  });
  await state.meaning?.save(store);
  return read;
}

/** The first load leaves its garbage (every record's row, text and words: several times what it
 * keeps); collected once, after it, the process does not grow on it (10k records: RSS after 50 more
 * discovers ~15 MB less, bench/memory-vectors.ts). */
export function settleFirstLoad(state: DiscoverState): void {
  if (state.loaded) return;
  state.loaded = true;
  Bun.gc(true);
}

function forget(state: DiscoverState, provider: ProviderSlot, key: string): void {
  state.index.remove(key);
  for (const side of [state.meaning, provider]) side?.remove(key);
}

function toolSet(tools: readonly ToolEntry[], signature: string): ToolSet {
  const keyOf = (t: ToolEntry) => toolKey(t.ns, t.name);
  return {
    signature,
    source: tools,
    keys: new Set(tools.map(keyOf)),
    own: new Set(tools.filter((t) => t.own).map(keyOf)),
    demo: new Map(tools.filter((t) => t.demo).map((t) => [keyOf(t), t.ns])),
    notEnabled: new Set(tools.filter((t) => t.enabled === false).map(keyOf)),
    changing: new Set(tools.filter((t) => t.changes).map((t) => `${t.ns}:${t.name}`)),
  };
}

/** The tools offered beside the capabilities, indexed again when the list or a tool's flags changed. */
export function refreshTools(state: DiscoverState, tools: readonly ToolEntry[], provider: ProviderSlot): void {
  // The very list indexed last (the gateway gives the same array while nothing changed): not even its signature is made.
  if (tools === state.tools.source) return;
  const signature = tools.map((t) => `${t.ns}:${t.name}${t.own ? "+o" : ""}${t.demo ? "+d" : ""}${t.enabled === false ? "-e" : ""}${t.changes ? "+c" : ""}`).join(",");
  if (signature === state.tools.signature) {
    state.tools = { ...state.tools, source: tools };
    return;
  }
  for (const key of state.tools.keys) forget(state, provider, key);
  state.tools = toolSet(tools, signature);
  for (const t of tools) {
    const key = toolKey(t.ns, t.name);
    state.index.add(toolDoc(key, t));
    for (const side of [state.meaning, provider]) side?.text(key, toolMeaningText(t));
  }
}

/** The team registry's hits, as records of the index (a name held here wins). */
export function refreshTeam(state: DiscoverState, hits: readonly TeamHit[], provider: ProviderSlot): void {
  const names = new Set(hits.map((h) => h.name));
  const held = new Set<string>();
  if (names.size) for (const c of state.caps.values()) if (names.has(c.name) && (c.owner === state.owner || c.owner === USER_OWNER)) held.add(c.name);
  const next = new Map(hits.filter((h) => !held.has(h.name)).map((h) => [`team:${h.fqdn}`, h]));
  for (const key of state.team.keys()) if (!next.has(key)) forget(state, provider, key);
  for (const [key, h] of next) {
    if (state.team.has(key)) continue;
    const n = parseCallName(h.name);
    state.index.add({ key, name: n ? `${n.namespace} ${n.action}` : h.name, description: h.description });
    for (const side of [state.meaning, provider]) side?.text(key, `${n ? `${n.namespace} ${n.action}. ` : ""}${h.description ?? ""}`);
  }
  state.team = next;
}
