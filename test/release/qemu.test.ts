// The linux-arm64 build run for real, where qemu-user and an aarch64 C library are installed
// (`apt-get install qemu-user libc6-arm64-cross`); skipped with a line saying so otherwise.
import { afterAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { BUN, RawPeer, ROOT, tempDir, testEnv } from "../helpers/pml.ts";

const qemu = Bun.which("qemu-aarch64") ?? Bun.which("qemu-aarch64-static");
const sysroot = ["/usr/aarch64-linux-gnu", "/"].find((d) => existsSync(join(d, "lib/ld-linux-aarch64.so.1")));
const dir = tempDir("pml-qemu-");
afterAll(() => dir.cleanup());
if (!qemu || !sysroot) {
  console.warn(
    `skipped: running the linux-arm64 build (${!qemu ? "qemu-aarch64 is not installed" : "no aarch64 C library"}; \`apt-get install qemu-user libc6-arm64-cross\` to run it)`,
  );
}

test.skipIf(!qemu || !sysroot)(
  "the linux-arm64 binary answers --version and an MCP initialize under qemu (skipped without qemu-user and an aarch64 C library)",
  async () => {
    const bin = join(dir.path, "pml");
    const build = Bun.spawn([BUN, join(ROOT, "build.ts"), "--target", "bun-linux-arm64", "--outfile", bin], { cwd: ROOT, stdout: "ignore", stderr: "pipe" });
    const [err, code] = await Promise.all([new Response(build.stderr).text(), build.exited]);
    expect({ code, err }).toMatchObject({ code: 0 });
    const cmd = [qemu!, "-L", sysroot!, bin];
    const v = Bun.spawn([...cmd, "--version"], { stdout: "pipe", stderr: "ignore" });
    expect(await new Response(v.stdout).text()).toBe(`pml ${pkg.version} (linux-arm64)\n`);
    const ws = tempDir();
    const peer = new RawPeer(cmd, { cwd: ws.path, env: testEnv({ PML_WORKSPACE: ws.path, PML_HOME: join(ws.path, ".home") }) });
    try {
      expect((await peer.initialize()).result.serverInfo.name).toBe("pml");
    } finally {
      peer.kill();
      ws.cleanup();
    }
  },
  120_000,
);
