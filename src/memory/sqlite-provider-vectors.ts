// memory.db's cache of an embeddings provider's vectors (step 15): per model and text hash. A model
// whose vectors change dimension (another model served under the same name) has its old ones
// dropped in the same transaction as the new ones are written: one model's vectors are one size.
import type { Database } from "bun:sqlite";

type Row = { source: string; dims: number; vector: Uint8Array };

export function readProviderVectors(db: Database, model: string, sources?: readonly string[]): { dims?: number; vectors: Map<string, Uint8Array> } {
  const rows = sources
    ? sources.length
      ? (db.query(`SELECT source, dims, vector FROM provider_vectors WHERE model = ? AND source IN (${sources.map(() => "?").join(",")})`).all(model, ...sources) as Row[])
      : []
    : (db.query("SELECT source, dims, vector FROM provider_vectors WHERE model = ?").all(model) as Row[]);
  const dims = rows[0]?.dims ?? (db.query("SELECT dims FROM provider_vectors WHERE model = ? LIMIT 1").get(model) as { dims: number } | null)?.dims;
  const vectors = new Map<string, Uint8Array>();
  for (const r of rows) if (r.dims === dims && r.vector.byteLength === 4 + dims) vectors.set(r.source, r.vector);
  return dims === undefined ? { vectors } : { dims, vectors };
}

export function writeProviderVectors(db: Database, model: string, dims: number, rows: ReadonlyArray<{ source: string; bytes: Uint8Array }>): void {
  const put = db.query("INSERT OR REPLACE INTO provider_vectors (model, source, dims, vector) VALUES (?, ?, ?, ?)");
  db.transaction(() => {
    db.run("DELETE FROM provider_vectors WHERE model = ? AND dims != ?", [model, dims]);
    for (const r of rows) put.run(model, r.source, dims, r.bytes);
  }).immediate();
}
