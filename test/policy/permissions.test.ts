import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../src/errors.ts";
import { allowAlways, approvalMode, grantEnvAlways, permissionFor } from "../../src/policy/permissions.ts";
import { isPermissionPattern } from "../../src/config/permission-patterns.ts";
import { tempDirs } from "../config/helpers.ts";

const tempDir = tempDirs();

describe("permissionFor", () => {
  test("no match -> ask; empty config -> ask", () => {
    expect(permissionFor(undefined, "a:b")).toBe("ask");
    expect(permissionFor({}, "a:b")).toBe("ask");
    expect(permissionFor({ allow: ["x:*"] }, "a:b")).toBe("ask");
  });

  test("most specific wins: exact > namespace > *", () => {
    const perms = { allow: ["*", "git:status"], deny: ["git"], ask: [] };
    expect(permissionFor(perms, "git:status")).toBe("allow");
    expect(permissionFor(perms, "git:push")).toBe("deny");
    expect(permissionFor(perms, "other:x")).toBe("allow");
    expect(permissionFor({ deny: ["*"], allow: ["fs:*"] }, "fs:read")).toBe("allow");
    expect(permissionFor({ deny: ["*"], allow: ["fs:*"] }, "net:get")).toBe("deny");
    expect(permissionFor({ allow: ["fs"], ask: ["fs:write"] }, "fs:write")).toBe("ask");
  });

  test("ns and ns:* are the same specificity; equal specificity: deny > ask > allow", () => {
    expect(permissionFor({ allow: ["fs:*"], ask: ["fs"] }, "fs:read")).toBe("ask");
    expect(permissionFor({ allow: ["fs"], deny: ["fs:*"] }, "fs:read")).toBe("deny");
    expect(permissionFor({ allow: ["fs:read"], ask: ["fs:read"] }, "fs:read")).toBe("ask");
    expect(permissionFor({ allow: ["fs:read"], ask: ["fs:read"], deny: ["fs:read"] }, "fs:read")).toBe("deny");
    expect(permissionFor({ allow: ["*"], ask: ["*"] }, "a:b")).toBe("ask");
  });

  test("a namespace pattern does not match a longer namespace or a prefix", () => {
    expect(permissionFor({ allow: ["git"] }, "github:list")).toBe("ask");
    expect(permissionFor({ allow: ["git:st"] }, "git:status")).toBe("ask");
    expect(permissionFor({ allow: ["x:a.b"] }, "x:a.b")).toBe("allow");
  });

  test("pattern syntax", () => {
    for (const ok of ["*", "ns", "ns:*", "ns:act", "a-b_1:c.d-e", "acme.greet", "acme.greet:hello", "acme.greet:*", "cap:fs:read_json"]) expect(isPermissionPattern(ok)).toBe(true);
    for (const bad of ["", " ", "a b", "*:x", "ns:", ":x", ".a", "ns::", "ns:a*", "ns/x"]) expect(isPermissionPattern(bad)).toBe(false);
    // A dotted namespace is matched whole, never as a prefix of another.
    expect(permissionFor({ allow: ["acme.greet"] }, "acme.greet:hello")).toBe("allow");
    expect(permissionFor({ allow: ["acme"] }, "acme.greet:hello")).toBe("ask");
  });
});

describe("approvalMode", () => {
  const perms = { allow: ["fs", "git:status"], ask: ["fs:write"], deny: ["shell"] };
  test("all allowed -> auto", () => {
    expect(approvalMode(perms, ["fs:read", "git:status"])).toEqual({ mode: "auto", ask: [] });
    expect(approvalMode(perms, [])).toEqual({ mode: "auto", ask: [] });
  });
  test("any ask -> hil, listing them", () => {
    expect(approvalMode(perms, ["fs:read", "fs:write", "net:get", "fs:write"])).toEqual({ mode: "hil", ask: ["fs:write", "net:get"] });
  });
  test("unknown -> hil", () => {
    expect(approvalMode(perms, ["fs:read", "fs:nope"], (id) => id !== "fs:nope")).toEqual({ mode: "hil", ask: ["fs:nope"] });
  });
  test("any denied -> blocked, naming the tool", () => {
    const r = approvalMode(perms, ["fs:read", "fs:write", "shell:exec"]);
    expect(r.mode).toBe("blocked");
    expect(r.denied).toBe("shell:exec");
  });
});

describe("allowAlways", () => {
  // "Always" records its grant as trusted in $PML_HOME/trust/: a temporary PML_HOME (inherited by
  // the racing children), not the real ~/.pml.
  const before = process.env.PML_HOME;
  beforeEach(() => {
    process.env.PML_HOME = tempDir("pml-home-");
  });
  afterAll(() => {
    if (before === undefined) delete process.env.PML_HOME;
    else process.env.PML_HOME = before;
  });

  test("adds the exact tool id (not the namespace), idempotent, keeps other keys", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, ".pml.json"), JSON.stringify({ mine: 1, permissions: { ask: ["memory:create_entities", "memory"], deny: ["shell"] } }, null, 2));
    await allowAlways(ws, "memory:create_entities");
    await allowAlways(ws, "memory:create_entities");
    const file = JSON.parse(readFileSync(join(ws, ".pml.json"), "utf8"));
    expect(file).toEqual({ mine: 1, permissions: { ask: ["memory"], deny: ["shell"], allow: ["memory:create_entities"] } });
    expect(permissionFor(file.permissions, "memory:create_entities")).toBe("allow");
    expect(permissionFor(file.permissions, "memory:delete")).toBe("ask");
  });

  test("Always for a variable writes env_grants under the namespace's own key, whatever its name (constructor, __proto__)", async () => {
    const ws = tempDir();
    for (const ns of ["constructor", "__proto__", "github"]) {
      await grantEnvAlways(ws, ns, ["GITHUB_TOKEN"]);
      await grantEnvAlways(ws, ns, ["GITHUB_TOKEN", "OTHER"]);
    }
    const text = readFileSync(join(ws, ".pml.json"), "utf8");
    const grants = JSON.parse(text).env_grants;
    expect(Object.keys(grants)).toEqual(["constructor", "__proto__", "github"]);
    for (const ns of Object.keys(grants)) expect(Object.getOwnPropertyDescriptor(grants, ns)!.value).toEqual(["GITHUB_TOKEN", "OTHER"]);
  });

  test("creates .pml.json when there is none", async () => {
    const ws = tempDir();
    const loaded = await allowAlways(ws, "git:status");
    expect(loaded.config.permissions.allow).toEqual(["git:status"]);
    expect(JSON.parse(readFileSync(join(ws, ".pml.json"), "utf8")).permissions.allow).toEqual(["git:status"]);
  });

  test("refuses patterns and a broken file", async () => {
    const ws = tempDir();
    await expect(allowAlways(ws, "memory")).rejects.toThrow(ConfigError);
    await expect(allowAlways(ws, "memory:*")).rejects.toThrow(/exact tool id/);
    writeFileSync(join(ws, ".pml.json"), "{ broken");
    await expect(allowAlways(ws, "a:b")).rejects.toThrow(/\.pml\.json:1:3: invalid JSON/);
    expect(readFileSync(join(ws, ".pml.json"), "utf8")).toBe("{ broken");
    writeFileSync(join(ws, ".pml.json"), '{"permissions": {"allow": "a:b"}}');
    await expect(allowAlways(ws, "a:b")).rejects.toThrow(/permissions\.allow: expected an array/);
  });

  test("in-process concurrent approvals all land", async () => {
    const ws = tempDir();
    await Promise.all(Array.from({ length: 15 }, (_, i) => allowAlways(ws, `t:n${i}`)));
    expect(JSON.parse(readFileSync(join(ws, ".pml.json"), "utf8")).permissions.allow.sort()).toEqual(Array.from({ length: 15 }, (_, i) => `t:n${i}`).sort());
  });

  test("two processes racing: every approval lands, none twice", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, ".pml.json"), JSON.stringify({ keep: "me", permissions: { allow: [] } }));
    const go = join(ws, "go");
    const child = (prefix: string) =>
      Bun.spawn([process.execPath, join(import.meta.dir, "fixtures/always-child.ts"), ws, prefix, "12", go], {
        env: { ...process.env },
        stdout: "pipe",
        stderr: "pipe",
      });
    const a = child("alpha");
    const b = child("beta");
    try {
      writeFileSync(go, "");
      const [ca, cb] = await Promise.all([a.exited, b.exited]);
      const errs = (await new Response(a.stderr).text()) + (await new Response(b.stderr).text());
      expect(errs).toBe("");
      expect([ca, cb]).toEqual([0, 0]);
    } finally {
      a.kill();
      b.kill();
    }
    const file = JSON.parse(readFileSync(join(ws, ".pml.json"), "utf8"));
    expect(file.keep).toBe("me");
    const expected = ["shared:same", ...["alpha", "beta"].flatMap((p) => Array.from({ length: 12 }, (_, i) => `${p}:tool_${i}`))];
    expect([...file.permissions.allow].sort()).toEqual(expected.sort());
    expect(existsSync(join(ws, ".pml.json.lock"))).toBe(false);
    expect(readdirSync(ws).sort()).toEqual([".pml.json", "go"]);
  });
});
