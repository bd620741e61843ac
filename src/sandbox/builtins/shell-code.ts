// Module source of the built-in `shell` MCP; the process is started by the host (host.ts, exec).
export const SHELL_CODE = String.raw`
export async function exec(args, ctx) {
  return await ctx.exec({ command: args.command, cwd: args.cwd, timeout_ms: args.timeout_ms });
}
`;
