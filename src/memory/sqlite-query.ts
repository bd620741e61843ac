// dns:query in the store: capabilities of a scope by tags, creator glob, namespace, words and
// counters, a page of them in name, usage or creation order, and how many match.
import { toCapability, type Row } from "./sqlite-rows.ts";
import type { StoreDb } from "./sqlite-statements.ts";
import type { Capability, CapabilityQuery } from "./store.ts";

const SORTS = { name: "c.namespace, c.action", usage: "c.usage_count DESC, c.namespace, c.action", created: "c.created_at DESC, c.id" } as const;

/** `owners`: whose records the query's scope reads (readableOwners). */
export function queryCapabilities(s: StoreDb, q: CapabilityQuery, owners: readonly string[]): { total: number; total_at_least?: boolean; items: Capability[] } {
  const tags = [...new Set(q.tags ?? [])];
  // With tags, the rows of the rarest tag drive the query: each carries the owner, name and
  // creator (migrations 5 and 8), so filters and the name order come from one index and
  // capability rows are read only for the page (and for filters only they hold).
  const driver = tags.length ? rarestTag(s, owners, tags) : undefined;
  const k = driver === undefined ? "c" : "t";
  const where = [`${k}.owner ${ownerIn(owners)}`, `${k}.record_type = 'capability'`];
  const params: Array<string | number> = [...owners];
  let from = "capabilities c";
  let needsCapability = false;
  if (driver !== undefined) {
    from = "capability_tags t";
    where.unshift("t.tag = ?");
    params.unshift(driver);
    for (const tag of tags) {
      if (tag === driver) continue;
      where.push("EXISTS (SELECT 1 FROM capability_tags o WHERE o.capability_id = t.capability_id AND o.tag = ?)");
      params.push(tag);
    }
  }
  if (q.created_by) {
    where.push(`${k}.created_by GLOB ?`);
    params.push(q.created_by);
  }
  if (q.namespace) {
    where.push(`${k}.namespace = ?`);
    params.push(q.namespace);
  }
  const onCapability = (cond: string, ...values: Array<string | number>) => {
    needsCapability = true;
    where.push(cond);
    params.push(...values);
  };
  if (q.visibility) onCapability("c.visibility = ?", q.visibility);
  if (q.named_only) onCapability("c.named = 1");
  if (q.unnamed_only) onCapability("c.named = 0");
  if (q.min_usage) onCapability("c.usage_count >= ?", q.min_usage);
  const words = (q.text ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  for (const word of words) {
    const like = `%${word.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    onCapability("(lower(c.namespace || ':' || c.action) LIKE ? ESCAPE '\\' OR lower(c.description) LIKE ? ESCAPE '\\' OR lower(c.intent) LIKE ? ESCAPE '\\')", like, like, like);
  }
  // Words of 3+ characters are looked up in the trigram index (migration 6) first; the LIKEs
  // above then check only its candidates. Shorter words have no trigram: the LIKEs scan.
  const phrases = words.filter((w) => [...w].length >= 3).map((w) => `"${w.replaceAll('"', '""')}"`);
  const textMatch = phrases.length && s.textIndex ? "SELECT rowid FROM capability_text WHERE capability_text MATCH ?" : undefined;
  if (textMatch && driver === undefined) {
    from = `(${textMatch}) x CROSS JOIN capabilities c ON c.rowid = x.rowid`;
    params.unshift(phrases.join(" AND "));
  } else if (textMatch) onCapability(`c.rowid IN (${textMatch})`, phrases.join(" AND "));
  const sort = q.sort ?? "name";
  if (driver !== undefined && (needsCapability || sort !== "name")) from += " CROSS JOIN capabilities c ON c.id = t.capability_id";
  const order = driver !== undefined && sort === "name" ? "t.namespace, t.action" : SORTS[sort];
  const id = driver === undefined ? "c.id" : "t.capability_id";
  const cond = where.join(" AND ");
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const page =
    (driver === undefined && q.created_by && sort === "name" && !needsCapability && pageByCreators(s, q, owners, limit, offset)) ||
    (s.db.query(`SELECT ${id} AS id FROM ${from} WHERE ${cond} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, limit, offset) as { id: string }[]);
  // Counting every match of a broad query costs as much as the query; past count_limit the
  // total is a lower bound, said as such.
  const cap = q.count_limit === undefined ? -1 : Math.max(q.count_limit, offset + page.length + 1);
  const counted = (s.db.query(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${cond} LIMIT ?)`).get(...params, cap) as { n: number }).n;
  const items = page.map((r) => toCapability(s.q.byId.get(r.id) as Row));
  return cap >= 0 && counted >= cap ? { total: counted, total_at_least: true, items } : { total: counted, items };
}

/**
 * A page by creator glob in name order, merged from each matching creator's own run of the
 * creator index (already in name order): a few short index reads instead of sorting every
 * match (a quarter of 100k records matching `ali*`: ~4 ms). Undefined when too many creators
 * match for that to pay; the caller then sorts.
 */
function pageByCreators(s: StoreDb, q: CapabilityQuery, owners: readonly string[], limit: number, offset: number): { id: string }[] | undefined {
  // The distinct creators from the glob's literal prefix on, one index seek each (with the glob
  // in the WHERE, SQLite seeks to the prefix and scans every record of the creators before).
  const glob = q.created_by!;
  const prefix = glob.slice(0, glob.search(/[*?[]/) === -1 ? glob.length : glob.search(/[*?[]/));
  const first = s.db.query("SELECT created_by FROM capabilities WHERE owner = ?1 AND created_by >= ?2 ORDER BY created_by LIMIT 1");
  const next = s.db.query("SELECT created_by FROM capabilities WHERE owner = ?1 AND created_by > ?2 ORDER BY created_by LIMIT 1");
  const matches = s.db.query("SELECT ?1 GLOB ?2 AS m");
  const creators: Array<[string, string]> = [];
  let seen = 0;
  for (const owner of owners)
    for (let r = first.get(owner, prefix) as { created_by: string } | null; r?.created_by.startsWith(prefix); r = next.get(owner, r.created_by) as { created_by: string } | null) {
      if (++seen > 64) return undefined;
      if ((matches.get(r.created_by, glob) as { m: number }).m) creators.push([owner, r.created_by]);
    }
  const run = s.db.query(
    `SELECT id, namespace, action FROM capabilities WHERE owner = ?1 AND created_by = ?2 AND record_type = 'capability'${q.namespace ? " AND namespace = ?4" : ""} ORDER BY namespace, action LIMIT ?3`,
  );
  const rows: Array<{ id: string; namespace: string; action: string }> = [];
  for (const [owner, by] of creators) rows.push(...(run.all(owner, by, offset + limit, ...(q.namespace ? [q.namespace] : [])) as typeof rows));
  // Names are [a-z0-9_]: JavaScript's order is SQLite's BINARY order for them.
  rows.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.action < b.action ? -1 : a.action > b.action ? 1 : 0));
  return rows.slice(offset, offset + limit);
}

/** `= ?` for one owner (the index gives the name order), `IN (?, ?)` for a workspace and the user's. */
function ownerIn(owners: readonly string[]): string {
  return owners.length === 1 ? "= ?" : `IN (${owners.map(() => "?").join(", ")})`;
}

/** The tag with the fewest records the owners hold (read from the tag index's counts). */
function rarestTag(s: StoreDb, owners: readonly string[], tags: string[]): string {
  if (tags.length === 1) return tags[0]!;
  const count = s.db.query(`SELECT COUNT(*) AS n FROM capability_tags WHERE tag = ? AND owner ${ownerIn(owners)}`);
  let best = tags[0]!;
  let bestN = Infinity;
  for (const tag of tags) {
    const n = (count.get(tag, ...owners) as { n: number }).n;
    if (n < bestN) [best, bestN] = [tag, n];
  }
  return best;
}
