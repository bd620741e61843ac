// A catalog server installed under PML_HOME (deps.json) joins tools/list; pml reads deps.json again
// only when it changed (every `discover {query}` asks which namespaces are shown), so an install by
// another pml process mid-session is seen on the next list, and an uninstall too.
import { afterAll, expect, test } from "bun:test";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";

const ws = tempDir();
const home = tempDir();
afterAll(() => {
  ws.cleanup();
  home.cleanup();
});

/** deps.json as the installer writes it: replaced whole (a new file renamed over the old). */
function writeDeps(names: string[]) {
  const tmp = join(home.path, "deps.json.tmp");
  writeFileSync(tmp, JSON.stringify({ packages: Object.fromEntries(names.map((name) => [name, { name, version: "1.0.0" }])) }));
  renameSync(tmp, join(home.path, "deps.json"));
}

test("an install or uninstall recorded in deps.json by another process shows in the next tools/list", async () => {
  const { client } = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
  try {
    const memoryTools = async () => (await client.listTools()).tools.filter((t) => t.name.startsWith("memory__")).length;
    const discover = () => client.callTool({ name: "discover", arguments: { query: "remember a fact about a person" } });
    writeDeps(["some-other-package"]);
    await discover();
    expect(await memoryTools()).toBe(0);
    writeDeps(["some-other-package", "@modelcontextprotocol/server-memory"]);
    await discover();
    expect(await memoryTools()).toBeGreaterThan(0);
    rmSync(join(home.path, "deps.json"));
    await discover();
    expect(await memoryTools()).toBe(0);
  } finally {
    await client.close();
  }
});
