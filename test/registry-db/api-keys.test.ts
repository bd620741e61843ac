// --api-keys-file: keys mapped to {org, user} (two JSON shapes) or the plain list of keys, and the
// errors for files a registry operator gets wrong.
import { describe, expect, test } from "bun:test";
import { ApiKeys, parseApiKeysFile } from "../../src/registry-server/api-keys.ts";

describe("--api-keys-file", () => {
  test("both JSON shapes map a key to its org and user; plain lines are keys without identity", () => {
    const listed = parseApiKeysFile(JSON.stringify({ keys: [{ key: "k_alice_0001", org: "acme", user: "alice" }] }), "keys.json");
    const mapped = parseApiKeysFile(JSON.stringify({ k_alice_0001: { org: "acme", user: "alice" } }), "keys.json");
    expect([...listed]).toEqual([["k_alice_0001", { org: "acme", user: "alice" }]]);
    expect([...mapped]).toEqual([...listed]);
    expect([...parseApiKeysFile("# team keys\nkey-one\n\n  key-two  \n", "keys.txt")]).toEqual([
      ["key-one", null],
      ["key-two", null],
    ]);
    const keys = new ApiKeys(listed);
    expect(keys.identify("Bearer k_alice_0001")).toEqual({ ok: true, identity: { org: "acme", user: "alice" } });
    expect(keys.identify("bearer   k_alice_0001 ")).toEqual({ ok: true, identity: { org: "acme", user: "alice" } });
    expect(keys.identify("Bearer k_alice_0002").ok).toBe(false);
    expect(keys.identify("Basic k_alice_0001").ok).toBe(false);
  });

  test("mistakes name the place and the expected shape", () => {
    const bad: [string, RegExp][] = [
      ["{", /not valid JSON/],
      [JSON.stringify({ keys: [{ key: "k_alice_0001", org: "acme" }] }), /at 'keys\.0\.user'/],
      [JSON.stringify({ keys: [{ key: "short", org: "acme", user: "a" }] }), /at least 8 characters/],
      [JSON.stringify({ keys: [{ key: "k_alice_0001", org: "ac.me", user: "a" }] }), /org must be 1-64 letters, digits/],
      [
        JSON.stringify({
          keys: [
            { key: "k_alice_0001", org: "acme", user: "a" },
            { key: "k_alice_0001", org: "acme", user: "b" },
          ],
        }),
        /listed twice/,
      ],
    ];
    for (const [text, message] of bad) expect(() => parseApiKeysFile(text, "keys.json")).toThrow(message);
  });
});
