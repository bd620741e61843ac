#!/usr/bin/env bun
// `pml stdio` is started by the client on every session: it skips the command parser so stdin is
// read before any await and `initialize` is answered as soon as possible.
import { serveStdio } from "./gateway/transports/stdio.ts";
import { applyWorkspaceEnvTrust } from "./policy/trust/env-grants.ts";
import { EXEC_IN_GROUP, execInGroup } from "./pool/exec-in-group.ts";

const argv = process.argv.slice(2);
// A stdio server being started by pml's pool (pool/exec-in-group.ts): becomes that server.
if (argv[0] === EXEC_IN_GROUP) execInGroup(argv.slice(1));
// Before anything reads the environment: what the workspace's .mcp.json set for pml that weakens
// it applies only once the user trusted it (the client may start any command from that file).
if (argv[0] !== "__keep-embedded" && argv[0] !== "--version" && argv[0] !== "-v") applyWorkspaceEnvTrust();
if (argv.length === 1 && argv[0] === "stdio") {
  serveStdio();
} else if (argv.length === 3 && argv[0] === "__keep-embedded") {
  // A child of pml's own (memory/embedded-copy.ts KEEP_EMBEDDED): copies one of the binary's data files to the cache.
  const { keepEmbedded } = await import("./memory/embedded-copy.ts");
  await keepEmbedded(argv[1]!, argv[2]!).catch((e: Error) => {
    process.stderr.write(`pml: ${e.message}\n`);
    process.exit(1);
  });
} else if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  const { versionLine } = await import("./version.ts");
  process.stdout.write(`${versionLine()}\n`);
} else {
  // Colours only for a person at a terminal (citty reads NO_COLOR once, when it loads).
  if (!process.stdout.isTTY || process.env.NO_COLOR) process.env.NO_COLOR = "1";
  const [{ defineCommand }, { commands }, { version }, { runCli, fatal }] = await Promise.all([
    import("citty"),
    import("./cli/index.ts"),
    import("./version.ts"),
    import("./cli/run.ts"),
  ]);
  process.on("unhandledRejection", (e) => fatal(e));
  process.on("uncaughtException", (e) => fatal(e));
  const first = argv[0];
  if (first && !first.startsWith("-") && !Object.hasOwn(commands, first)) {
    const { closest } = await import("./config/did-you-mean.ts");
    const near = closest(first, Object.keys(commands));
    process.stderr.write(`pml: unknown command "${first}"${near ? ` (did you mean "${near}"?)` : ""}. Commands: ${Object.keys(commands).join(", ")}. See \`pml --help\`.\n`);
    process.exit(2);
  }
  await runCli(
    defineCommand({
      meta: { name: "pml", version, description: "Procedural Memory Layer: one MCP server for every tool your agent needs. New here? `pml try` shows it in a few seconds" },
      // Answered above, before citty loads; declared so that the help lists it.
      args: { version: { type: "boolean", alias: "v", description: "Print pml's version and exit" } },
      subCommands: commands,
    }),
    argv,
  );
}
