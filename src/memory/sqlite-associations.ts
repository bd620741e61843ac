// Learning from use in memory.db (discover_associations): per owner and item, the phrasings that
// led to a successful call, each with a count that decays (association-policy.ts).
import type { Database } from "bun:sqlite";
import { decayed, MAX_COUNT, MAX_PER_ITEM, MAX_PER_OWNER, MIN_COUNT } from "./association-policy.ts";
import type { Association, Learned } from "./store.ts";

export function readAssociations(db: Database, owner: string): Association[] {
  return db.query("SELECT item_key, query, count, last_at FROM discover_associations WHERE owner = ?1").all(owner) as Association[];
}

/** One use counted (and, with `from`, the same words' credit taken back from the item used before). */
export function learnAssociation(db: Database, l: Learned): void {
  const now = Date.parse(l.at);
  const get = db.query("SELECT count, last_at FROM discover_associations WHERE owner = ?1 AND item_key = ?2 AND query = ?3");
  const put = db.query(
    `INSERT INTO discover_associations (owner, item_key, query, count, last_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (owner, item_key, query) DO UPDATE SET count = excluded.count, last_at = excluded.last_at`,
  );
  const drop = db.query("DELETE FROM discover_associations WHERE owner = ?1 AND item_key = ?2 AND query = ?3");
  const countOf = (item: string) => {
    const row = get.get(l.owner, item, l.query) as { count: number; last_at: string } | null;
    return row ? decayed(row.count, row.last_at, now) : 0;
  };
  db.transaction(() => {
    if (l.from !== undefined && l.from !== l.item) {
      const left = countOf(l.from) - 1;
      if (left < MIN_COUNT) drop.run(l.owner, l.from, l.query);
      else put.run(l.owner, l.from, l.query, left, l.at);
    }
    put.run(l.owner, l.item, l.query, Math.min(countOf(l.item) + 1, MAX_COUNT), l.at);
    pruneItem(db, l.owner, l.item, now);
    pruneOwner(db, l.owner);
  }).immediate();
}

/** Keeps the item's MAX_PER_ITEM phrasings with the highest decayed counts. */
function pruneItem(db: Database, owner: string, item: string, now: number): void {
  const rows = db.query("SELECT query, count, last_at FROM discover_associations WHERE owner = ?1 AND item_key = ?2").all(owner, item) as Association[];
  if (rows.length <= MAX_PER_ITEM) return;
  const drop = db.query("DELETE FROM discover_associations WHERE owner = ?1 AND item_key = ?2 AND query = ?3");
  const ranked = rows.map((r) => ({ query: r.query, w: decayed(r.count, r.last_at, now), at: r.last_at }));
  ranked.sort((a, b) => b.w - a.w || (a.at < b.at ? 1 : -1));
  for (const r of ranked.slice(MAX_PER_ITEM)) drop.run(owner, item, r.query);
}

function pruneOwner(db: Database, owner: string): void {
  const { n } = db.query("SELECT COUNT(*) AS n FROM discover_associations WHERE owner = ?1").get(owner) as { n: number };
  if (n <= MAX_PER_OWNER) return;
  db.query(
    `DELETE FROM discover_associations WHERE owner = ?1 AND (item_key, query) IN
       (SELECT item_key, query FROM discover_associations WHERE owner = ?1 ORDER BY last_at LIMIT ?2)`,
  ).run(owner, n - MAX_PER_OWNER);
}
