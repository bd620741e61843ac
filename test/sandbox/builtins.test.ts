// The built-in filesystem and shell modules, through runModuleTool as the gateway calls them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { ModuleDescriptorSchema } from "../../src/registry/descriptor.ts";
import { auditLogPath } from "../../src/sandbox/audit.ts";
import { builtinModules } from "../../src/sandbox/builtins/builtins.ts";
import { clearModulePool, runModuleTool } from "../../src/sandbox/module-runner.ts";

let base: string;
let ws: string;
const mods = builtinModules();

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "pml-builtins-")));
  ws = join(base, "ws");
  await mkdir(join(ws, "src", "deep"), { recursive: true });
  await writeFile(join(base, "secret.txt"), "TOP SECRET");
  await writeFile(join(ws, "a.txt"), "one\ntwo\nthree\nfour\n");
  await writeFile(join(ws, "src", "x.ts"), "export const x = 1;\n");
  await writeFile(join(ws, "src", "deep", "y.ts"), "export const y = 2;\n");
  await writeFile(join(ws, "crlf.txt"), "a\r\nb\r\n");
  await symlink(join(base, "secret.txt"), join(ws, "link-out"));
  await symlink(base, join(ws, "dir-out"));
});

afterAll(async () => {
  clearModulePool();
  await rm(base, { recursive: true, force: true });
});

const fs = (action: string, args: unknown) => runModuleTool({ ns: "filesystem", descriptor: mods.filesystem!, action, args, workspace: ws });
const sh = (args: unknown, netAllow?: string[]) => runModuleTool({ ns: "shell", descriptor: mods.shell!, action: "exec", args, workspace: ws, netAllow });

async function auditLines(): Promise<any[]> {
  const text = await readFile(auditLogPath(ws), "utf8").catch(() => "");
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe("descriptors", () => {
  test("are valid module descriptors whose tools match the code's exports", () => {
    for (const [ns, d] of Object.entries(mods)) {
      expect(v.safeParse(ModuleDescriptorSchema, d).success).toBe(true);
      for (const t of d.tools) expect([ns, t.name, d.code.includes(`export async function ${t.name}(`)]).toEqual([ns, t.name, true]);
      for (const t of d.tools) expect(t.inputSchema?.type).toBe("object");
    }
    expect(mods.filesystem!.tools.map((t) => t.name).sort()).toEqual([
      "create_directory",
      "edit_file",
      "get_file_info",
      "list_directory",
      "move_file",
      "read_file",
      "search_files",
      "write_file",
    ]);
  });
});

describe("filesystem", () => {
  test("read_file, with head and tail", async () => {
    expect(await fs("read_file", { path: "a.txt" })).toBe("one\ntwo\nthree\nfour\n");
    expect(await fs("read_file", { path: "a.txt", head: 2 })).toBe("one\ntwo");
    expect(await fs("read_file", { path: "a.txt", tail: 2 })).toBe("four\n");
  });

  test("write_file is atomic, creates parents, and leaves no temp files", async () => {
    expect(await fs("write_file", { path: "out/new.txt", content: "hello" })).toBe("Wrote 5 bytes to out/new.txt");
    expect(await readFile(join(ws, "out", "new.txt"), "utf8")).toBe("hello");
    expect(await readdir(join(ws, "out"))).toEqual(["new.txt"]);
  });

  test("edit_file applies exact edits, returns a diff, honours dryRun and CRLF", async () => {
    await writeFile(join(ws, "e.txt"), "alpha\nbeta\ngamma\n");
    const dry = (await fs("edit_file", { path: "e.txt", edits: [{ oldText: "beta", newText: "BETA" }], dryRun: true })) as string;
    expect(dry).toContain("-beta\n+BETA");
    expect(await readFile(join(ws, "e.txt"), "utf8")).toBe("alpha\nbeta\ngamma\n");
    await fs("edit_file", {
      path: "e.txt",
      edits: [
        { oldText: "beta", newText: "BETA" },
        { oldText: "gamma", newText: "delta" },
      ],
    });
    expect(await readFile(join(ws, "e.txt"), "utf8")).toBe("alpha\nBETA\ndelta\n");
    const missing: any = await fs("edit_file", { path: "e.txt", edits: [{ oldText: "nope", newText: "x" }] }).catch((e: any) => e);
    expect(missing.message).toContain("edit 1: oldText was not found in e.txt");
    await fs("edit_file", { path: "crlf.txt", edits: [{ oldText: "a\nb", newText: "a\nc" }] });
    expect(await readFile(join(ws, "crlf.txt"), "utf8")).toBe("a\r\nc\r\n");
  });

  test("list_directory, search_files, get_file_info, create_directory, move_file", async () => {
    const listing = (await fs("list_directory", { path: "src" })) as string;
    expect(listing).toBe("[DIR] deep\n[FILE] x.ts");
    expect(await fs("search_files", { pattern: "**/*.ts" })).toBe("src/deep/y.ts\nsrc/x.ts");
    const info = (await fs("get_file_info", { path: "a.txt" })) as any;
    expect(info).toMatchObject({ path: "a.txt", type: "file", size: 19 });
    expect(await fs("create_directory", { path: "made/here" })).toBe("Created directory made/here");
    expect(await fs("move_file", { source: "out/new.txt", destination: "made/here/moved.txt" })).toBe("Moved out/new.txt to made/here/moved.txt");
    expect(await readFile(join(ws, "made", "here", "moved.txt"), "utf8")).toBe("hello");
    const clash: any = await fs("move_file", { source: "a.txt", destination: "e.txt" }).catch((e: any) => e);
    expect(clash.message).toContain("already exists");
  });

  test("everything outside the workspace is refused and audited", async () => {
    const attempts: [string, unknown][] = [
      ["read_file", { path: "../secret.txt" }],
      ["read_file", { path: "link-out" }],
      ["read_file", { path: "dir-out/secret.txt" }],
      ["write_file", { path: "dir-out/pwned.txt", content: "x" }],
      ["write_file", { path: join(base, "pwned.txt"), content: "x" }],
      ["list_directory", { path: "dir-out" }],
      ["search_files", { pattern: "../*" }],
      ["move_file", { source: "a.txt", destination: "dir-out/a.txt" }],
      ["create_directory", { path: "../made" }],
      ["get_file_info", { path: "/etc/passwd" }],
      ["write_file", { path: ".pml/audit.log", content: "" }],
    ];
    for (const [action, args] of attempts) {
      const e: any = await fs(action, args).catch((x: any) => x);
      expect([action, e instanceof Error]).toEqual([action, true]);
    }
    expect(await readdir(base)).toEqual(expect.not.arrayContaining(["pwned.txt", "made", "a.txt"]));
    const lines = await auditLines();
    expect(lines.length).toBeGreaterThanOrEqual(attempts.length);
    const first = lines.find((l) => l.attempted === "read ../secret.txt");
    expect(first).toMatchObject({ tool: "filesystem:read_file", reason: `Path "../secret.txt" is outside the workspace ${ws}` });
    expect(typeof first.time).toBe("string");
    expect(lines.some((l) => l.attempted === "write .pml/audit.log")).toBe(true);
  });
});

describe("shell", () => {
  test("runs in the workspace and reports exit code, stdout, stderr", async () => {
    const r = (await sh({ command: "pwd; echo err >&2; exit 3" })) as any;
    expect(r).toMatchObject({ exit_code: 3, stdout: `${ws}\n`, stderr: "err\n", truncated: false, timed_out: false });
  });

  test("cwd goes through the path guard", async () => {
    expect(((await sh({ command: "pwd", cwd: "src" })) as any).stdout).toBe(`${join(ws, "src")}\n`);
    const e: any = await sh({ command: "pwd", cwd: "dir-out" }).catch((x: any) => x);
    expect(e.message).toContain("outside the workspace");
  });

  test("the environment holds no secrets", async () => {
    process.env.PML_TEST_SECRET = "s3cret";
    try {
      const r = (await sh({ command: "env" })) as any;
      expect(r.stdout).not.toContain("s3cret");
      expect(r.stdout).toContain("PATH=");
    } finally {
      delete process.env.PML_TEST_SECRET;
    }
  });

  test("a timeout kills the command (and its children)", async () => {
    const r = (await sh({ command: "sleep 5 & sleep 5; echo never", timeout_ms: 300 })) as any;
    expect(r.timed_out).toBe(true);
    expect(r.stdout).not.toContain("never");
  });

  test("output is capped", async () => {
    const r = (await sh({ command: "yes x | head -c 1000000" })) as any;
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBe(256 * 1024);
  });

  test("a registry module calling itself shell gets no exec", async () => {
    const fake = { ...mods.shell!, code: mods.shell!.code + "\n// not the built-in" };
    const e: any = await runModuleTool({ ns: "shell", descriptor: fake, action: "exec", args: { command: "echo hi" }, workspace: ws }).catch((x: any) => x);
    expect(e.message).toContain("not granted");
  });
});
