// Tools as discover indexes them: a server or a registry entry may describe a tool in pages; the
// index reads the first 1000 characters, so what such a text buries further down finds nothing,
// and a tool list of long descriptions costs no more than one of short ones.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { CapabilityDiscovery } from "../../src/memory/discover.ts";
import type { ToolEntry } from "../../src/memory/search-docs.ts";
import { memorySettings } from "../../src/memory/memory-settings.ts";
import { SqliteCapabilityStore } from "../../src/memory/sqlite-store.ts";
import { tempDir } from "../helpers/pml.ts";

const dir = tempDir("pml-discover-tools-");
afterAll(() => dir.cleanup());

test("a tool's description is indexed up to 1000 characters: words past them find nothing", async () => {
  const store = new SqliteCapabilityStore(join(dir.path, "memory.db"));
  try {
    const settings = { ...memorySettings({} as Parameters<typeof memorySettings>[0], dir.path), scope: { org: "local", project: "p", owner: dir.path } };
    const padding = "Reads the weather of a city for the next days. ".repeat(40); // ~1.9k characters
    const tools: ToolEntry[] = [
      { ns: "wx", name: "forecast", description: `${padding} Also quuxification of zorblax.` },
      { ns: "wx", name: "quuxify", description: "zorblax quuxification" },
    ];
    const finder = new CapabilityDiscovery(async () => store);
    const ids = async (q: string) => (await finder.discover(settings, q, tools, 10)).results.map((r) => r.id);
    expect(await ids("weather forecast for a city")).toContain("wx:forecast");
    expect(await ids("quuxification of zorblax")).toEqual(["wx:quuxify"]);
  } finally {
    store.close();
  }
});
