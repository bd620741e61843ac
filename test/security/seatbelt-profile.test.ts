// The Seatbelt profile cannot run here (macOS only), but its regexes can be checked: protected
// names at any depth and in any case are write-denied, `.env*` files read-denied, ordinary
// names left alone, and network denied unless the policy allows it.
import { expect, test } from "bun:test";
import { seatbeltProfile } from "../../src/sandbox/confine-seatbelt.ts";

const WS = "/Users/me/proj (v2)";
const profile = (network = false) =>
  seatbeltProfile({ workspace: WS, network, readOnly: ["/Users/me/.pml/deps"], writable: ["/Users/me/.pml/data/x"] }, "/private/tmp/pml-1", ["/Users/me"]);

function rule(text: string, kind: string): RegExp {
  const m = text.split("\n").find((l) => l.startsWith(`(deny ${kind} (regex #"`));
  expect(m, kind).toBeDefined();
  return new RegExp(m!.slice(`(deny ${kind} (regex #"`.length, -'"))'.length).replaceAll('\\"', '"'));
}

test("protected names are write-denied at any depth and case; others are not", () => {
  const write = rule(profile(), "file-write*");
  for (const p of [".pml.json", ".PML.JSON", ".git/hooks/pre-commit", "sub/.git", "a/.Claude/settings.json", ".mcp.json", ".pml/audit.log", ".env", "app/.env.production"]) {
    expect(write.test(`${WS}/${p}`), p).toBe(true);
  }
  for (const p of ["src/index.ts", ".gitignore", ".github/workflows/ci.yml", ".envrc", "a.pml.json", "environment.ts"]) {
    expect(write.test(`${WS}/${p}`), p).toBe(false);
  }
  expect(write.test("/Users/me/other/.git/config")).toBe(false); // outside: the general write deny covers it
});

test(".env files are read-denied, other dotfiles readable", () => {
  const read = rule(profile(), "file-read-data");
  for (const p of [".env", ".ENV.local", "app/.env.production"]) expect(read.test(`${WS}/${p}`), p).toBe(true);
  for (const p of [".envrc", ".pml.json", "env/x"]) expect(read.test(`${WS}/${p}`), p).toBe(false);
});

test("home hidden, workspace/deps/data readable, network off unless allowed", () => {
  const text = profile();
  expect(text).toContain('(deny file-read* (subpath "/Users/me"))');
  expect(text).toContain('(subpath "/Users/me/.pml/deps")');
  expect(text).toContain('(subpath "/Users/me/.pml/data/x")');
  expect(text).toContain("(deny network*)");
  expect(profile(true)).not.toContain("(deny network*)");
  // The workspace's special characters are escaped in regexes: "(v2)" is literal.
  expect(text).toContain("proj \\(v2\\)");
});
