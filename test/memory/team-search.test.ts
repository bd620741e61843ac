// What discover takes from a team registry's search answer, against a stand-in on 127.0.0.1 that
// answers badly: more entries than asked, descriptions pages long, entries of the wrong shape, no
// list at all, megabytes. Each hit is indexed and ranked by every discover that gets it, so a
// registry must not be able to make discover slow or fail; it gets at most what was asked for.
import { afterAll, expect, test } from "bun:test";
import { searchTeam, type TeamRegistry } from "../../src/memory/team.ts";

let answer: () => Response = () => Response.json({ items: [] });
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => answer() });
afterAll(() => server.stop(true));
const team: TeamRegistry = { url: `http://127.0.0.1:${server.port}`, publish: "off", publishDefaults: false };

const item = (i: number, over: Record<string, unknown> = {}) => ({
  type: "capability",
  name: `util:tool_${i}`,
  fqdn: `acme.util.tool_${i}`,
  org: "acme",
  description: `tool ${i} `.repeat(200),
  ...over,
});

test("at most the entries asked for, each description cut to a line's worth, entries of another shape left out", async () => {
  answer = () =>
    Response.json({
      viewer: { org: "acme" },
      items: [
        item(0, { fqdn: 42 }), // not a string: left out
        "not an entry",
        null,
        item(1, { description: null, version: null }),
        item(2, { type: "mcp-server" }),
        ...Array.from({ length: 500 }, (_, i) => item(i + 3)),
      ],
    });
  const { hits, note } = await searchTeam(team, "tools", 10);
  expect(note).toBeUndefined();
  expect(hits).toHaveLength(10);
  expect(hits[0]).toEqual({ name: "util:tool_1", fqdn: "acme.util.tool_1", org: "acme", description: undefined, version: undefined, by: undefined });
  expect(hits.map((h) => h.fqdn)).not.toContain("acme.util.tool_2");
  for (const h of hits.slice(1)) expect(h.description!.length).toBeLessThanOrEqual(1000);
});

test("an answer with no list, or not JSON, or megabytes long, finds nothing and says why, without failing", async () => {
  answer = () => Response.json({ items: "everything" });
  expect(await searchTeam(team, "tools", 10)).toEqual({ hits: [] });
  answer = () => new Response("<html>oops</html>", { headers: { "content-type": "text/html" } });
  const html = await searchTeam(team, "tools", 10);
  expect(html.hits).toEqual([]);
  expect(html.note).toContain("not JSON: is cloud.url a pml registry?");
  answer = () => Response.json({ items: Array.from({ length: 2000 }, (_, i) => item(i)) }); // ~3 MB
  const big = await searchTeam(team, "tools", 10);
  expect(big.hits).toEqual([]);
  expect(big.note).toMatch(/sent \d+ bytes, more than the 1048576 pml reads/);
  expect(big.note).not.toContain("unreachable");
});
