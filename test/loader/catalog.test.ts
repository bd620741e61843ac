import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { builtinCatalog } from "../../src/registry/catalog.ts";
import { DescriptorSchema, StdioDescriptorSchema } from "../../src/registry/descriptor.ts";
import { root } from "../pool/helpers.ts";

test("every catalog entry is a valid pinned stdio descriptor with real tools", () => {
  expect(Object.keys(builtinCatalog).sort()).toEqual(["everything", "memory", "sequential_thinking", "server_filesystem"]);
  for (const [ns, desc] of Object.entries(builtinCatalog)) {
    expect(v.safeParse(StdioDescriptorSchema, desc).success).toBe(true);
    expect(v.safeParse(DescriptorSchema, desc).success).toBe(true);
    expect(desc.package?.version).toBe("2026.8.31");
    expect(desc.integrity).toMatch(/^sha512-/);
    expect(desc.tools?.length, ns).toBeGreaterThan(0);
    for (const t of desc.tools!) expect(t.inputSchema.type).toBe("object");
  }
  expect(builtinCatalog.server_filesystem!.args).toEqual(["${workspace}"]);
  expect(builtinCatalog.memory!.tools!.map((t) => t.name)).toContain("create_entities");
});

test("pinned integrity matches the devDependency lockfile entries (same tarballs as npm serves)", () => {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  for (const desc of Object.values(builtinCatalog)) {
    const entry = lock.packages[`node_modules/${desc.package!.identifier}`];
    expect(entry.version).toBe(desc.package!.version);
    expect(entry.integrity).toBe(desc.integrity);
  }
});
