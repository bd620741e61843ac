import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../../src/errors.ts";
import { resolveWorkspace } from "../../src/config/workspace.ts";
import { tempDirs } from "./helpers.ts";

const tempDir = tempDirs();

function project(): { root: string; sub: string; other: string } {
  const base = tempDir();
  const root = join(base, "proj");
  const sub = join(root, "src", "deep");
  const other = join(base, "other");
  mkdirSync(sub, { recursive: true });
  mkdirSync(other);
  writeFileSync(join(root, "package.json"), "{}");
  return { root, sub, other };
}

describe("resolveWorkspace", () => {
  test("order: PML_WORKSPACE > CLAUDE_PROJECT_DIR > marker > cwd", () => {
    const { root, sub, other } = project();
    expect(resolveWorkspace({ env: { PML_WORKSPACE: other, CLAUDE_PROJECT_DIR: root }, cwd: sub })).toEqual({ root: other, source: "PML_WORKSPACE" });
    expect(resolveWorkspace({ env: { CLAUDE_PROJECT_DIR: other }, cwd: sub })).toEqual({ root: other, source: "CLAUDE_PROJECT_DIR" });
    expect(resolveWorkspace({ env: {}, cwd: sub })).toEqual({ root, source: "marker" });
  });

  test("each marker counts, nearest first", () => {
    for (const marker of [".pml.json", ".mcp.json", ".git", "package.json", "deno.json"]) {
      const base = tempDir();
      const inner = join(base, "a", "b");
      mkdirSync(inner, { recursive: true });
      writeFileSync(join(base, "package.json"), "{}");
      if (marker === ".git") mkdirSync(join(base, "a", ".git"));
      else writeFileSync(join(base, "a", marker), "{}");
      expect(resolveWorkspace({ env: {}, cwd: inner }).root).toBe(join(base, "a"));
    }
  });

  test("relative PML_WORKSPACE is taken from cwd", () => {
    const { root, sub } = project();
    expect(resolveWorkspace({ env: { PML_WORKSPACE: "../.." }, cwd: sub }).root).toBe(root);
  });

  test("no marker: cwd, with a warning suggesting PML_WORKSPACE", () => {
    // /tmp itself may sit under a marked directory on odd machines; only check when it does not.
    const dir = tempDir();
    const ws = resolveWorkspace({ env: {}, cwd: dir });
    if (ws.source === "cwd") {
      expect(ws.root).toBe(dir);
      expect(ws.warning).toContain("PML_WORKSPACE");
    } else {
      expect(ws.source).toBe("marker");
    }
  });

  test("a missing or non-directory PML_WORKSPACE is an error that says so", () => {
    const { root, sub } = project();
    const missing = join(root, "nope");
    expect(() => resolveWorkspace({ env: { PML_WORKSPACE: missing }, cwd: sub })).toThrow(ConfigError);
    expect(() => resolveWorkspace({ env: { PML_WORKSPACE: missing }, cwd: sub })).toThrow(/PML_WORKSPACE .*does not exist/);
    expect(() => resolveWorkspace({ env: { PML_WORKSPACE: join(root, "package.json") }, cwd: sub })).toThrow(/is not a directory/);
  });

  test("a literal ${workspaceFolder} is treated as unset, with a warning", () => {
    const { root, sub, other } = project();
    const ws = resolveWorkspace({ env: { PML_WORKSPACE: "${workspaceFolder}", CLAUDE_PROJECT_DIR: other }, cwd: sub });
    expect(ws.root).toBe(other);
    expect(ws.source).toBe("CLAUDE_PROJECT_DIR");
    expect(ws.warning).toContain("${workspaceFolder}");
    expect(ws.warning).toContain("PML_WORKSPACE");
    const ws2 = resolveWorkspace({ env: { CLAUDE_PROJECT_DIR: "${workspaceFolder}/x" }, cwd: sub });
    expect(ws2).toMatchObject({ root, source: "marker" });
    expect(ws2.warning).toContain("CLAUDE_PROJECT_DIR");
  });

  test("an empty variable counts as unset", () => {
    const { root, sub } = project();
    expect(resolveWorkspace({ env: { PML_WORKSPACE: "", CLAUDE_PROJECT_DIR: " " }, cwd: sub })).toEqual({ root, source: "marker" });
  });

  test("a missing CLAUDE_PROJECT_DIR falls back to the marker walk with a warning", () => {
    const { root, sub } = project();
    const ws = resolveWorkspace({ env: { CLAUDE_PROJECT_DIR: join(root, "gone") }, cwd: sub });
    expect(ws).toMatchObject({ root, source: "marker" });
    expect(ws.warning).toContain("does not exist");
  });

  test("symlinked cwd resolves to the real project root", () => {
    const { root, sub } = project();
    const link = join(tempDir(), "link");
    symlinkSync(sub, link);
    expect(resolveWorkspace({ env: {}, cwd: link })).toEqual({ root, source: "marker" });
    const linkedRoot = join(tempDir(), "linkroot");
    symlinkSync(root, linkedRoot);
    expect(resolveWorkspace({ env: { PML_WORKSPACE: linkedRoot }, cwd: sub }).root).toBe(root);
  });
});
