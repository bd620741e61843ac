// Learning from use does not hand one task's capability to its near twin (issue 46, "no learned
// takeover"). The same user phrases twin tasks alike: "the feature flags turned on in app.json" one
// day, "turned off in mobile.json" the next. The first request's credit goes to the code written for
// it; the second is close enough to the first by its words (the search reads neither "on" nor
// "off") that this credit would lift that capability for it too, and mark it a fit. It does the
// other task: no credit, never a fit. The same request again, with other data, still finds it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseDiscover } from "../helpers/discover.ts";
import { memoryFixture, text, type MemoryFixture } from "./helpers.ts";

let fx: MemoryFixture;
beforeAll(() => {
  fx = memoryFixture();
  writeFileSync(join(fx.ws, "app.json"), JSON.stringify({ features: { search: true, beta: false, dark: true } }));
});
afterAll(async () => {
  await fx.cleanup();
});

type Client = Awaited<ReturnType<MemoryFixture["connect"]>>["client"];
const discover = async (client: Client, query: string) => parseDiscover(text(await client.callTool({ name: "discover", arguments: { query } }))).results as any[];

const ON = "list the feature flags turned on in app.json";

test("a capability past use chose for a twin request is neither lifted nor marked a fit; the same request still is", async () => {
  const first = (await fx.connect()).client;
  await discover(first, ON);
  const saved: any = await first.callTool({
    name: "execute",
    arguments: {
      code: "const c = JSON.parse(await mcp.filesystem.read_file({ path: args.path }));\nreturn Object.keys(c.features).filter((k) => c.features[k] === true);",
      args: { path: "app.json" },
      name: "flags:list_enabled",
      intent: "list the feature flags set to true in a JSON config's features object",
    },
  });
  expect(text(saved)).toContain("dark");

  const next = (await fx.connect()).client;
  const off = (await discover(next, "list the feature flags turned off in mobile.json")).find((r) => r.id === "flags:list_enabled");
  expect(off).toBeDefined();
  expect(off.learned).toBeUndefined();
  expect(off.match).toBe("weak");

  const again = (await discover(next, "list the feature flags turned on in web.json")).find((r) => r.id === "flags:list_enabled");
  expect(again).toMatchObject({ learned: `found before by: ${JSON.stringify(ON)}` });
  expect(again.match).not.toBe("weak");
});
