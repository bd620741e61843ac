// Issue 9, finding 5: `search_files` listed names outside the workspace through a symlink named in
// the pattern (`r -> /`, pattern `r/etc/pass*` returned `r/etc/passwd`). Through the compiled pml:
// no pattern returns a name outside the workspace, none walks outside it, `.env*` folders are not
// searched into, and ordinary searches (also through links inside the workspace) still work.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entries, sdkClient, tempDir, testEnv } from "../helpers/pml.ts";
import { writeTrustedConfig } from "../helpers/trust.ts";

const text = (r: any) => r.content.map((c: any) => c.text ?? "").join("\n");
let ws: ReturnType<typeof tempDir>;
let home: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;
let client: Awaited<ReturnType<typeof sdkClient>>;

beforeAll(async () => {
  ws = tempDir("pml-sec-search-");
  home = tempDir("pml-sec-home-");
  outside = tempDir("pml-sec-outside-");
  writeFileSync(join(outside.path, "secret.txt"), "x");
  mkdirSync(join(ws.path, "src/deep"), { recursive: true });
  writeFileSync(join(ws.path, "src/deep/a.ts"), "");
  writeFileSync(join(ws.path, "src/b.ts"), "");
  mkdirSync(join(ws.path, ".env.d"));
  writeFileSync(join(ws.path, ".env.d/api.key"), "K=1");
  writeFileSync(join(ws.path, ".env"), "K=1");
  symlinkSync("/", join(ws.path, "r"));
  symlinkSync(outside.path, join(ws.path, "out"));
  symlinkSync("src", join(ws.path, "inner")); // a link that stays inside
  await writeTrustedConfig(ws.path, { permissions: { allow: ["filesystem"] } }, home.path);
  client = await sdkClient(entries.binary, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: home.path }) });
});
afterAll(async () => {
  await client?.transport.close();
  for (const d of [ws, home, outside]) d?.cleanup();
});

const search = async (pattern: string, path?: string) => {
  const r: any = await client.client.callTool({ name: "filesystem__search_files", arguments: path ? { pattern, path } : { pattern } });
  return { error: r.isError === true, text: text(r) };
};

test("the reported pattern through r -> / is refused, and returns no outside name", async () => {
  const r = await search("r/etc/pass*");
  expect(r.error).toBe(true);
  expect(r.text).toContain("outside the workspace");
  expect(r.text).not.toContain("passwd");
});

test("no pattern reaches outside: literal links, globs over links, **, .., absolute, escapes, braces", async () => {
  const patterns = [
    "r/etc/passwd",
    "r/**/hostname",
    "*/etc/pass*",
    "**/passwd",
    "r/{etc,x}/passwd",
    "./r/etc/passwd",
    "r//etc/passwd",
    "out/*",
    "out/secret.txt",
    "**/secret.txt",
    "*/secret.txt",
    "../*",
    "/etc/pass*",
    "\\r/etc/passwd",
    "{..,x}/*",
  ];
  for (const p of patterns) {
    const r = await search(p);
    // Either refused with the reason, or a list with nothing from outside in it.
    const leaked = !r.error && !r.text.startsWith("No matches for") && /passwd|hostname|secret\.txt/.test(r.text);
    const why = r.error ? /outside the workspace|may not contain \.\.|backslashes are not allowed/.test(r.text) : true;
    expect([p, leaked, why]).toEqual([p, false, true]);
  }
  const inPath = await search("*", "r/etc");
  expect(inPath.error).toBe(true);
  expect(inPath.text).not.toContain("passwd");
});

test("ordinary searches work, also through a link that stays inside; .env* folders are not searched into", async () => {
  expect((await search("**/*.ts")).text.split("\n").sort()).toEqual(["src/b.ts", "src/deep/a.ts"]);
  expect((await search("inner/**/*.ts")).text.split("\n").sort()).toEqual(["inner/b.ts", "inner/deep/a.ts"]);
  expect((await search("src/b.ts")).text).toBe("src/b.ts");
  const all = (await search("**")).text;
  expect(all).toContain(".env.d");
  expect(all).toContain(".env");
  expect(all).not.toContain("api.key");
  expect((await search("*", ".env.d")).text).toContain("is protected");
  expect((await search(".env.d/*")).text).toContain("is protected");
});
