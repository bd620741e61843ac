import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalName, findProtectedPaths, protectedComponent, protectedKind } from "../../src/fs/protected.ts";

describe("protected names", () => {
  test("policy files and folders at any depth, in any case or Unicode variant", () => {
    for (const p of [
      ".pml.json",
      ".PML.JSON",
      "a/b/.git/hooks/pre-commit",
      "sub/.Claude/settings.json",
      ".mcp.json.",
      ".mcp.json ",
      "．ｇｉｔ/config",
      ".pml\u200b.json",
      ".pml/audit.log",
      "x\\.git\\config",
      ".g\u0131t/config",
      ".pml.j\u017fon",
    ]) {
      expect(protectedKind(p)).toBe("policy");
    }
  });
  test(".env files are 'env' wherever they are", () => {
    for (const p of [".env", ".env.local", "app/.ENV.production", "．env"]) expect(protectedKind(p)).toBe("env");
  });
  test("ordinary names are not protected", () => {
    for (const p of ["src/index.ts", "pml.json", ".gitignore", ".github/workflows/ci.yml", "environment.ts", ".envrc-notes/x", "a.pml.json"]) {
      expect(protectedKind(p)).toBeUndefined();
    }
  });
  test("the component is reported as written", () => {
    expect(protectedComponent("src/.GIT/config")).toBe(".GIT");
    expect(canonicalName("．ＰＭＬ．json..")).toBe(".pml.json");
  });
  test("findProtectedPaths lists existing entries, not inside them, not through symlinks", () => {
    const root = mkdtempSync(join(tmpdir(), "pml-protected-"));
    mkdirSync(join(root, ".git/hooks"), { recursive: true });
    mkdirSync(join(root, "pkg/.claude"), { recursive: true });
    mkdirSync(join(root, "node_modules/x"), { recursive: true });
    writeFileSync(join(root, "node_modules/x/.env"), "");
    writeFileSync(join(root, ".pml.json"), "{}");
    writeFileSync(join(root, "pkg/.env.local"), "A=1");
    symlinkSync("/", join(root, "r"));
    expect(
      findProtectedPaths(root)
        .map((p) => p.slice(root.length + 1))
        .sort(),
    ).toEqual([".git", ".pml.json", "pkg/.claude", "pkg/.env.local"]);
  });
});
