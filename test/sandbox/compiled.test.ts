// The sandbox inside a `bun build --compile` binary: the QuickJS .wasm and the sandbox worker must
// be embedded, not read from node_modules or src/. Builds a tiny entry to a temp dir and runs it from another directory.
import { afterAll, expect, test } from "bun:test";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

test("a sandbox call and a built-in module run inside a compiled binary", async () => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "pml-compiled-")));
  dirs.push(dir);
  const src = resolve(import.meta.dir, "../../src/sandbox");
  const entry = join(dir, "entry.ts");
  await writeFile(
    entry,
    `import { runCode } from ${JSON.stringify(join(src, "run-code.ts"))};
import { runModuleTool } from ${JSON.stringify(join(src, "module-runner.ts"))};
import { builtinModules } from ${JSON.stringify(join(src, "builtins/builtins.ts"))};
const ws = process.argv[2];
const code = await runCode({ code: "return (await mcp.t.echo({ n: args.n })).n * 2", args: { n: 21 }, callTool: async (_t, a) => a });
const escape = await runCode({ code: "return this.constructor.constructor('return typeof process')()" });
const mods = builtinModules();
await runModuleTool({ ns: "filesystem", descriptor: mods.filesystem, action: "write_file", args: { path: "f.txt", content: "hi" }, workspace: ws });
const read = await runModuleTool({ ns: "filesystem", descriptor: mods.filesystem, action: "read_file", args: { path: "f.txt" }, workspace: ws });
process.stdout.write(JSON.stringify({ code: code.value, escape: escape.value, read }));
`,
  );
  const out = join(dir, "sandbox-bin");
  // As build.ts does: the sandbox worker is an entry of its own, found at its place in the binary
  // relative to the entries' common folder (which depends on where the repository and the temp
  // folder are: `/` for /work/x and /tmp/y, `/tmp` when the repository is cloned under /tmp).
  const worker = join(src, "worker.ts");
  const common = commonFolder(entry, worker);
  const built = await Bun.build({
    entrypoints: [entry, worker],
    compile: { outfile: out },
    minify: true,
    define: { PML_SANDBOX_WORKER: JSON.stringify(`./${relative(common, worker)}`) },
  });
  expect(built.success).toBe(true);
  const ws = join(dir, "ws");
  await Bun.$`mkdir -p ${ws}`.quiet();
  // Run from the temp dir so nothing (worker, .wasm) can be found on disk relative to the repo.
  const proc = Bun.spawn([out, ws], { cwd: ws, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ code: 42, escape: "undefined", read: "hi" });
}, 120_000);

function commonFolder(a: string, b: string): string {
  const pa = a.split("/"),
    pb = b.split("/");
  let i = 0;
  while (i < pa.length - 1 && i < pb.length - 1 && pa[i] === pb[i]) i++;
  return pa.slice(0, i).join("/") || "/";
}
