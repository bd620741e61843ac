// Which named capabilities tools/list carries when it is bounded (.pml.json memory.list_tools):
// chosen from a light read of every named record (no code, no schema), then only the chosen ones
// read in full, so a list of 20 costs the same at 10,000 records as at 100.
import type { Capability } from "./store.ts";
import { toCapability, type Row } from "./sqlite-rows.ts";
import type { StoreDb } from "./sqlite-statements.ts";

interface Listed {
  id: string;
  namespace: string;
  action: string;
  pinned: number;
  last_success_at: string | null;
  deprecated: number;
}

/** Pinned first (by name), then the newest successful call first, then by name: the same state
 * always gives the same order (a client may cache the list). */
function before(a: Listed, b: Listed): number {
  if (a.pinned !== b.pinned) return b.pinned - a.pinned;
  if (!a.pinned) {
    const x = a.last_success_at ?? "";
    const y = b.last_success_at ?? "";
    if (x !== y) return x < y ? 1 : -1;
  }
  return a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.action < b.action ? -1 : a.action > b.action ? 1 : 0;
}

/** `owners` in precedence order: a name the first holds hides the same name of the others. */
export function listedNamed(s: StoreDb, owners: readonly string[], limit?: number): { items: Capability[]; total: number; deprecated: string[] } {
  // A deprecated one is left out (still callable by name, found by discover) unless the user pinned it.
  const light = s.db.query(
    "SELECT id, namespace, action, pinned, last_success_at, deprecated IS NOT NULL AS deprecated FROM capabilities WHERE owner = ?1 AND named = 1 AND record_type = 'capability'",
  );
  const held = new Set<string>();
  const all: Listed[] = [];
  const deprecated: string[] = [];
  for (const owner of owners) {
    const mine = light.all(owner) as Listed[];
    const names: string[] = [];
    for (const r of mine) {
      const name = `${r.namespace}:${r.action}`;
      if (held.has(name)) continue;
      names.push(name);
      if (!r.deprecated || r.pinned) all.push(r);
      else deprecated.push(r.id);
    }
    for (const n of names) held.add(n);
  }
  all.sort(before);
  const chosen = limit === undefined ? all : all.slice(0, limit);
  return { items: chosen.map((r) => toCapability(s.q.byId.get(r.id) as Row)), total: all.length, deprecated };
}
