// Regenerates src/registry/catalog-tools.json: the tools (name, description, inputSchema...) of
// each built-in catalog server, listed from the real servers in node_modules (devDependencies at
// the pinned versions). Run after bumping a catalog version: `bun scripts/gen-catalog-tools.ts`.
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Pool, RELAYING_CAPABILITIES } from "../src/pool/pool.ts";
import { builtinCatalog } from "../src/registry/catalog.ts";

const root = resolve(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "pml-catalog-tools-"));
const pool = new Pool({ logDir: join(dir, "logs"), workspace: dir, clientCapabilities: RELAYING_CAPABILITIES });
const out: Record<string, unknown[]> = {};
try {
  for (const [ns, desc] of Object.entries(builtinCatalog)) {
    const pkg = desc.package!;
    const pkgDir = join(root, "node_modules", pkg.identifier);
    const meta = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
    if (meta.version !== pkg.version) throw new Error(`${pkg.identifier}: node_modules has ${meta.version}, catalog pins ${pkg.version}`);
    const bin = typeof meta.bin === "string" ? meta.bin : Object.values(meta.bin as Record<string, string>)[0]!;
    const args = (desc.args ?? []).map((a) => a.replaceAll("${workspace}", dir).replaceAll("${pml_home}", dir));
    const env = { ...(process.env as Record<string, string>), BUN_BE_BUN: "1", MEMORY_FILE_PATH: join(dir, "memory.jsonl") };
    const tools = await pool.listTools(ns, { command: process.execPath, args: [join(pkgDir, bin), ...args], env });
    out[ns] = tools.map(({ name, title, description, inputSchema, outputSchema, annotations }: any) =>
      Object.fromEntries(Object.entries({ name, title, description, inputSchema, outputSchema, annotations }).filter(([, v]) => v !== undefined)),
    );
    console.error(`${ns}: ${tools.length} tools`);
  }
} finally {
  await pool.shutdown();
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(join(root, "src/registry/catalog-tools.json"), JSON.stringify(out, null, 1) + "\n");
