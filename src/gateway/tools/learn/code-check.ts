// What learn:save reads from code it keeps without running: whether it parses, and the tools it calls.

let transpiler: Bun.Transpiler | undefined;

/** The first line of the parse error of code run as the body of `async (mcp, args) => {}`, if any. */
export function syntaxProblem(code: string): string | undefined {
  transpiler ??= new Bun.Transpiler({ loader: "ts" });
  const problem = parseProblem(`async function __pml(mcp, args) {\n${code}\n}`);
  // "Unexpected }" is then often the wrapper's closing brace: without it, code that ends early
  // meets the end of the file instead (code with a stray "}" of its own does not).
  if (problem === "Unexpected }" && parseProblem(`async function __pml(mcp, args) {\n${code}\n`) === "Unexpected end of file")
    return "the code ends before it is complete (a bracket, parenthesis, string or expression is not closed)";
  return problem;
}

function parseProblem(source: string): string | undefined {
  try {
    transpiler!.transformSync(source);
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
