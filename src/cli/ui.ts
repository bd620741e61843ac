import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "ui",
    description: "A local page on 127.0.0.1 for this workspace: overview, activity, capabilities (versions, diffs, rename, tags), pending approvals",
  },
  args: {
    open: { type: "boolean", description: "Open the page in your browser", negativeDescription: "Only print the page's address", default: true },
    port: { type: "string", description: "Port to listen on (default: a free one)", default: "0" },
    dir: { type: "string", description: "The workspace (default: the detected one)" },
  },
  async run({ args }) {
    const port = Number(args.port);
    if (!/^\d+$/.test(args.port) || port > 65535) {
      process.stderr.write(`pml ui: --port ${args.port}: expected an integer from 0 to 65535 (0: any free port)\n`);
      process.exit(1);
    }
    const [{ resolveWorkspace }, { pmlHome }, { startUi }] = await Promise.all([import("../config/workspace.ts"), import("../config/paths.ts"), import("../ui/server.ts")]);
    const workspace = resolveWorkspace({ cwd: args.dir });
    if (workspace.warning) process.stderr.write(`pml ui: ${workspace.warning}\n`);
    let server: Awaited<ReturnType<typeof startUi>>;
    try {
      server = await startUi({ workspace, home: pmlHome(), port });
    } catch (e: any) {
      const why = e?.code === "EADDRINUSE" ? `port ${port} is in use; pick another with --port N (or leave --port out for any free port)` : (e?.message ?? String(e));
      process.stderr.write(`pml ui could not start: ${why}\n`);
      process.exit(1);
    }
    process.stdout.write(`pml ui: ${server.url}\n`);
    process.stderr.write(`pml ui: serving ${workspace.root}; Ctrl-C to stop.\n`);
    if (args.open !== false) openBrowser(server.url);
    const stop = () => void server.stop().finally(() => process.exit(0));
    for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, stop);
    await new Promise(() => {});
  },
});

/** The platform's own opener; when there is none the printed address is the way in. */
function openBrowser(url: string): void {
  const cmd = process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  try {
    const child = Bun.spawn(cmd, { stdio: ["ignore", "ignore", "ignore"] });
    child.unref();
  } catch {
    process.stderr.write("pml ui: could not open a browser; open the address above.\n");
  }
}
