// What learn:save reads from code it keeps without running: whether it parses, and the tools it calls.

let transpiler: Bun.Transpiler | undefined;

/** The first line of the parse error of code run as the body of `async (mcp, args) => {}`, if any. */
export function syntaxProblem(code: string): string | undefined {
  transpiler ??= new Bun.Transpiler({ loader: "ts" });
  try {
    transpiler.transformSync(`async function __pml(mcp, args) {\n${code}\n}`);
    return undefined;
  } catch (e) {
    return (e as Error).message.split("\n")[0];
  }
}

/** Tool ids the code calls as `mcp.ns.action(` (what learn:save records as tools used). */
export function toolsIn(code: string): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(/\bmcp\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\s*\(/g)) out.add(`${m[1]}:${m[2]}`);
  return [...out];
}
