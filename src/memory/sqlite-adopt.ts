// Records from before workspaces owned them: memory.db step 8 left each under
// `legacy:<org>/<project>`, the old scope that named it, since the workspace it came from is not
// recorded anywhere. The first workspace opening the store under that same old scope name (the
// folder name, or .pml.json memory.org/project) adopts them, and from then on they are that
// workspace's alone, as if they had been saved there. A name the workspace already holds keeps its
// own record; the legacy one with that name waits for another workspace of the old name.
import { nextSeq, type StoreDb } from "./sqlite-statements.ts";
import { legacyOwner, USER_OWNER, type Scope } from "./store.ts";

/** How many records `scope` adopted (0 when there were none left for its old scope name). */
export function adoptLegacy(s: StoreDb, scope: Scope): number {
  if (scope.owner === USER_OWNER || scope.owner.startsWith("legacy:")) return 0;
  const legacy = legacyOwner(scope.org, scope.project);
  if (!s.q.anyOwned.get(legacy)) return 0;
  return s.db
    .transaction(() => {
      // One change number for the lot: search indexes of other processes see the new owner.
      const moved = s.db.run("UPDATE OR IGNORE capabilities SET owner = ?1, seq = ?3 WHERE owner = ?2", [scope.owner, legacy, nextSeq(s)]).changes;
      s.db.run("UPDATE OR IGNORE capability_aliases SET owner = ?1 WHERE owner = ?2 AND capability_id IN (SELECT id FROM capabilities WHERE owner = ?1)", [scope.owner, legacy]);
      return moved;
    })
    .immediate();
}
