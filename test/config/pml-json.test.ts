import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../src/errors.ts";
import { locateJsonError } from "../../src/config/json-text.ts";
import { defaultProjectConfig, loadProjectConfig, updateProjectConfig, validateProjectConfig } from "../../src/config/pml-json.ts";
import { permissionFor } from "../../src/policy/permissions.ts";
import { tempDirs } from "./helpers.ts";

const tempDir = tempDirs();

async function loadError(text: string): Promise<string> {
  const ws = tempDir();
  writeFileSync(join(ws, ".pml.json"), text);
  try {
    await loadProjectConfig(ws);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error("expected loadProjectConfig to fail");
}

describe("loadProjectConfig", () => {
  test("missing file: defaults, exists false", async () => {
    const ws = tempDir();
    const loaded = await loadProjectConfig(ws);
    expect(loaded.exists).toBe(false);
    expect(loaded.path).toBe(join(ws, ".pml.json"));
    expect(loaded.config.permissions).toEqual({ allow: [], ask: [], deny: [] });
    expect(loaded.config.private_mcps).toEqual({});
    expect(loaded.config.registries).toBeUndefined();
  });

  test("a full valid file", async () => {
    const ws = tempDir();
    const file = {
      permissions: { allow: ["*", "fs", "git:*", "memory:create_entities", "x:a.b-c"], deny: ["shell"] },
      private_mcps: { mine: { command: "node", args: ["s.js"], env: { A: "1" } }, other: { type: "http", url: "http://x" } },
      registries: ["https://r.example/", "http://127.0.0.1:9/"],
      cloud: { url: "https://cloud.example" },
      pool: { idle_timeout_s: 60, call_timeout_s: 30 },
      sandbox: { timeout_ms: 1000, memory_mb: 64, net_allow: ["api.example"] },
      sampling: { anything: true },
      future_key: { kept: 1 },
    };
    writeFileSync(join(ws, ".pml.json"), JSON.stringify(file));
    const loaded = await loadProjectConfig(ws);
    expect(loaded.exists).toBe(true);
    expect(loaded.config.permissions.ask).toEqual([]);
    expect(loaded.config.permissions.deny).toEqual(["shell"]);
    expect((loaded.config as any).future_key).toEqual({ kept: 1 });
    expect(loaded.raw).toEqual(file);
  });

  test("zero bytes (a confined process's placeholder) reads as no file: the defaults", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, ".pml.json"), "");
    const loaded = await loadProjectConfig(ws);
    expect(loaded.exists).toBe(false);
    expect(loaded.config.permissions.allow).toEqual([]);
  });

  test("bad JSON: file, line and column, and what is wrong", async () => {
    let msg = await loadError('{\n  "permissions": {\n    "allow": ["a" "b"]\n  }\n}\n');
    expect(msg).toContain('.pml.json:3:19: invalid JSON: expected ","');
    msg = await loadError("{\n  permissions: {}\n}");
    expect(msg).toMatch(/\.pml\.json:2:3: invalid JSON: unexpected character \(property names and strings need double quotes\)/);
    msg = await loadError('{"a": 1}\n/* hi');
    expect(msg).toContain("invalid JSON: unterminated /* comment");
    msg = await loadError('{"a": 1');
    expect(msg).toContain(':1:8: invalid JSON: expected "," or "}"');
    msg = await loadError("\n");
    expect(msg).toContain("empty");
    msg = await loadError("[]");
    expect(msg).toContain("expected a JSON object");
  });

  test("wrong types: file, key path, what was expected", async () => {
    let msg = await loadError(JSON.stringify({ permissions: { allow: ["ok:x", "a b"] } }));
    expect(msg).toContain(`.pml.json: permissions.allow[1]: expected a permission pattern like "ns:action", "ns:*", "ns" or "*", got "a b"`);
    msg = await loadError(JSON.stringify({ permissions: { deny: "shell" } }));
    expect(msg).toContain(`permissions.deny: expected an array, got "shell"`);
    msg = await loadError(JSON.stringify({ permissions: { ask: ["x", 3, "ns:*:*"] } }));
    expect(msg).toContain("permissions.ask[1]: expected a string, got 3");
    expect(msg).toContain(`permissions.ask[2]: expected a permission pattern`);
    msg = await loadError(JSON.stringify({ registries: ["ftp://x"] }));
    expect(msg).toContain(`registries[0]: expected an http(s) URL, got "ftp://x"`);
    msg = await loadError(JSON.stringify({ private_mcps: { "bad name": { command: "x" } } }));
    expect(msg).toContain(`private_mcps["bad name"]: expected a namespace name`);
    msg = await loadError(JSON.stringify({ private_mcps: { ok: "node server.js" } }));
    expect(msg).toContain(`private_mcps.ok: expected an object`);
    msg = await loadError(JSON.stringify({ pool: { idle_timeout_s: "10" } }));
    expect(msg).toContain(`pool.idle_timeout_s: expected a number, got "10"`);
  });

  test("a sandbox limit out of range names the key and the allowed range", async () => {
    let msg = await loadError(JSON.stringify({ sandbox: { memory_mb: 8192 } }));
    expect(msg).toContain(".pml.json: sandbox.memory_mb: 8192 is out of range; allowed 16–2048 (MB; the sandbox's WebAssembly heap cannot grow past 2 GB)");
    msg = await loadError(JSON.stringify({ sandbox: { timeout_ms: 0, max_concurrent: 2.5, max_queued: 100_000 } }));
    expect(msg).toContain("sandbox.timeout_ms: 0 is out of range; allowed 100–3600000 (ms)");
    expect(msg).toContain("sandbox.max_concurrent: expected a whole number, got 2.5; allowed 1–64 (whole numbers)");
    expect(msg).toContain("sandbox.max_queued: 100000 is out of range; allowed 1–10000 (whole numbers)");
  });

  test("default config is valid and lets nothing run unasked", () => {
    const config = validateProjectConfig(defaultProjectConfig());
    expect(permissionFor(config.permissions, "shell:exec")).toBe("ask");
    expect(permissionFor(config.permissions, "filesystem:write_file")).toBe("ask");
  });

  test("json error locator agrees with JSON.parse on what is valid", () => {
    for (const ok of ['{"a":[1,-2.5e3,true,null,"\\u00e9\\n"]}', " [ ] ", '"x"', "0"]) expect(locateJsonError(ok)).toBeUndefined();
    for (const bad of ["{'a':1}", '{"a":01}', '{"a":tru}', '{"a":"x\ny"}', "{}}", '"\\x"', "[1 2]"]) {
      expect(() => JSON.parse(bad)).toThrow();
      expect(locateJsonError(bad)).toBeDefined();
    }
  });
});

describe("updateProjectConfig", () => {
  test("keeps unknown keys, key order and the user's indentation; no temp files", async () => {
    const ws = tempDir();
    const text = '{\n    "zeta": 1,\n    "permissions": {\n        "deny": ["shell"],\n        "custom": true\n    },\n    "alpha": {"nested": [1, 2]}\n}\n';
    writeFileSync(join(ws, ".pml.json"), text);
    await updateProjectConfig(ws, (raw: any) => {
      raw.permissions.allow = ["git:status"];
    });
    const out = readFileSync(join(ws, ".pml.json"), "utf8");
    // Only the new entry is written; the user's own layout of everything else stays.
    expect(out).toBe(
      '{\n    "zeta": 1,\n    "permissions": {\n        "deny": ["shell"],\n        "custom": true,\n        "allow": [\n            "git:status"\n        ]\n    },\n    "alpha": {"nested": [1, 2]}\n}\n',
    );
    expect(readdirSync(ws).sort()).toEqual([".pml.json"]);
  });

  test("JSONC: comments and trailing commas are read, and an edit leaves them and the rest of the text alone", async () => {
    const ws = tempDir();
    const text =
      '{\n  // who may run what\n  "permissions": {\n    "allow": ["filesystem:read_file", ], // reads are fine\n    /* never */ "deny": ["shell:exec"],\n  },\n  "pool": {"idle_timeout_s": 60},\n}\n';
    writeFileSync(join(ws, ".pml.json"), text);
    const loaded = await loadProjectConfig(ws);
    expect(loaded.config.permissions.allow).toEqual(["filesystem:read_file"]);
    await updateProjectConfig(ws, (raw: any) => raw.permissions.allow.push("git:status"));
    const out = readFileSync(join(ws, ".pml.json"), "utf8");
    for (const kept of ["// who may run what", "// reads are fine", '/* never */ "deny": ["shell:exec"],', '"pool": {"idle_timeout_s": 60},']) expect(out).toContain(kept);
    expect(out).toContain('"git:status"');
    expect((await loadProjectConfig(ws)).config.permissions.allow).toEqual(["filesystem:read_file", "git:status"]);
  });

  test("the README's .pml.json example loads as written", async () => {
    const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
    const m = /## `\.pml\.json` reference\n\n```jsonc\n([\s\S]*?)\n```/.exec(readme);
    expect(m).not.toBeNull();
    const ws = tempDir();
    writeFileSync(join(ws, ".pml.json"), m![1]!);
    const loaded = await loadProjectConfig(ws);
    expect(loaded.config.permissions.allow.length).toBeGreaterThan(0);
  });

  test("2-space indent and trailing newline by default; a new file gets $schema and its schema copy", async () => {
    const ws = tempDir();
    await updateProjectConfig(ws, (raw: any) => raw.permissions.allow.push("git:log"));
    const out = readFileSync(join(ws, ".pml.json"), "utf8");
    expect(out.endsWith("}\n")).toBe(true);
    expect(out).toContain('\n  "permissions": {');
    expect(JSON.parse(out).$schema).toBe("./.pml/pml.schema.json");
    expect(JSON.parse(readFileSync(join(ws, ".pml/pml.schema.json"), "utf8")).title).toBe(".pml.json");
  });

  test("refuses to overwrite a file it cannot parse, or with a wrong type, or to write an invalid result", async () => {
    const ws = tempDir();
    const path = join(ws, ".pml.json");
    for (const broken of ['{"permissions": {"allow": [}}', '{"permissions": {"allow": "x"}}', '{"permissions": {"allow": ["a b"]}}']) {
      writeFileSync(path, broken);
      await expect(
        updateProjectConfig(ws, (raw: any) => {
          raw.x = 1;
        }),
      ).rejects.toThrow(ConfigError);
      expect(readFileSync(path, "utf8")).toBe(broken);
    }
    writeFileSync(path, "{}");
    await expect(
      updateProjectConfig(ws, (raw: any) => {
        raw.permissions = { deny: ["bad pattern!"] };
      }),
    ).rejects.toThrow(/permissions\.deny\[0\].*was not changed/s);
    expect(readFileSync(path, "utf8")).toBe("{}");
    expect(readdirSync(ws)).toEqual([".pml.json"]);
  });

  test("an unchanged result is not rewritten", async () => {
    const ws = tempDir();
    const path = join(ws, ".pml.json");
    writeFileSync(path, '{\n  "a": 1\n}\n');
    const before = Bun.file(path).lastModified;
    const ino = (await import("node:fs")).statSync(path).ino;
    await updateProjectConfig(ws, () => {});
    expect((await import("node:fs")).statSync(path).ino).toBe(ino);
    expect(Bun.file(path).lastModified).toBe(before);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
