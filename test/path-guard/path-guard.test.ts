import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PathError, resolveInWorkspace } from "../../src/fs/path-guard.ts";

let base: string;
let ws: string; // the workspace, reached through a symlink (like /tmp on macOS)
let wsReal: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "pml-guard-")));
  wsReal = join(base, "real-ws");
  outside = join(base, "outside");
  await mkdir(join(wsReal, "sub", "deep"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(wsReal, "a.txt"), "a");
  await writeFile(join(wsReal, "sub", "b.txt"), "b");
  await writeFile(join(outside, "secret.txt"), "secret");
  ws = join(base, "ws-link");
  await symlink(wsReal, ws);
  await symlink(join(outside, "secret.txt"), join(wsReal, "file-out"));
  await symlink(outside, join(wsReal, "dir-out"));
  await symlink(join(wsReal, "file-out"), join(wsReal, "chain")); // chain -> file-out -> outside
  await symlink(join(wsReal, "sub"), join(wsReal, "sub-link")); // stays inside
  await symlink("sub/b.txt", join(wsReal, "rel-inside"));
  await symlink(join(outside, "not-yet.txt"), join(wsReal, "dangling-out"));
  await symlink(join(wsReal, "sub", "later.txt"), join(wsReal, "dangling-in"));
  await symlink(join(wsReal, "loop-b"), join(wsReal, "loop-a"));
  await symlink(join(wsReal, "loop-a"), join(wsReal, "loop-b"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refused(p: string, opts?: { mustExist?: boolean; forWrite?: boolean }): Promise<PathError> {
  try {
    await resolveInWorkspace(ws, p, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(PathError);
    return e as PathError;
  }
  throw new Error(`expected ${p} to be refused`);
}

describe("resolveInWorkspace", () => {
  test("relative paths resolve to real paths inside the workspace", async () => {
    expect(await resolveInWorkspace(ws, "a.txt")).toBe(join(wsReal, "a.txt"));
    expect(await resolveInWorkspace(ws, "./sub/../sub/b.txt", { mustExist: true })).toBe(join(wsReal, "sub", "b.txt"));
    expect(await resolveInWorkspace(ws, ".")).toBe(wsReal);
  });

  test("absolute paths inside are allowed, through the workspace symlink or the real path", async () => {
    expect(await resolveInWorkspace(ws, join(ws, "a.txt"))).toBe(join(wsReal, "a.txt"));
    expect(await resolveInWorkspace(ws, join(wsReal, "a.txt"))).toBe(join(wsReal, "a.txt"));
  });

  test("`..` escapes are refused with a message naming the path and the workspace", async () => {
    const e = await refused("../outside/secret.txt");
    expect(e.reason).toBe("outside");
    expect(e.message).toBe(`Path "../outside/secret.txt" is outside the workspace ${ws}`);
    expect((await refused("sub/../../x")).reason).toBe("outside");
  });

  test("absolute paths outside are refused", async () => {
    expect((await refused("/etc/passwd")).reason).toBe("outside");
    expect((await refused(join(outside, "secret.txt"))).reason).toBe("outside");
    // a sibling whose name starts with the workspace's name is not inside it
    expect((await refused(wsReal + "-evil/x")).reason).toBe("outside");
  });

  test("a file symlink pointing out is refused", async () => {
    const e = await refused("file-out");
    expect(e.reason).toBe("symlink-outside");
    expect(e.message).toContain("outside the workspace");
    expect(e.message).toContain("symlink");
  });

  test("a directory symlink pointing out is refused, for existing and new files under it", async () => {
    expect((await refused("dir-out/secret.txt")).reason).toBe("symlink-outside");
    expect((await refused("dir-out/new.txt", { forWrite: true })).reason).toBe("symlink-outside");
    expect((await refused("dir-out/a/b/c.txt", { forWrite: true })).reason).toBe("symlink-outside");
  });

  test("a symlink chain that ends outside is refused", async () => {
    expect((await refused("chain")).reason).toBe("symlink-outside");
  });

  test("symlinks that stay inside are allowed", async () => {
    expect(await resolveInWorkspace(ws, "sub-link/b.txt", { mustExist: true })).toBe(join(wsReal, "sub", "b.txt"));
    expect(await resolveInWorkspace(ws, "rel-inside", { mustExist: true })).toBe(join(wsReal, "sub", "b.txt"));
    expect(await resolveInWorkspace(ws, "sub-link/new.txt", { forWrite: true })).toBe(join(wsReal, "sub", "new.txt"));
  });

  test("a dangling symlink pointing out is refused when creating through it", async () => {
    expect((await refused("dangling-out", { forWrite: true })).reason).toBe("symlink-outside");
  });

  test("a dangling symlink pointing inside resolves to its target", async () => {
    expect(await resolveInWorkspace(ws, "dangling-in", { forWrite: true })).toBe(join(wsReal, "sub", "later.txt"));
  });

  test("symlink loops are refused", async () => {
    expect((await refused("loop-a")).reason).toBe("loop");
  });

  test("NUL bytes and empty paths are refused", async () => {
    expect((await refused("a.txt\0.png")).reason).toBe("nul");
    const e = await refused("");
    expect(e.reason).toBe("empty");
    expect(e.message).toContain("empty");
  });

  test("missing paths are refused only when they must exist", async () => {
    expect(await resolveInWorkspace(ws, "new/dir/file.txt")).toBe(join(wsReal, "new", "dir", "file.txt"));
    const e = await refused("nope.txt", { mustExist: true });
    expect(e.reason).toBe("missing");
    expect(e.message).toBe(`Path "nope.txt" does not exist in the workspace ${ws}`);
    expect((await refused("a.txt/under-a-file", { mustExist: true })).reason).toBe("missing");
  });

  test("the workspace root itself is not a write target", async () => {
    expect((await refused(".", { forWrite: true })).reason).toBe("workspace-root");
  });
});
