// The gate's decision (src/policy/evaluate.ts) is a pure function of the facts it is given: no
// file, registry, process, clock or network, and no state of its own. This follows every import
// that brings code along (an `import type` brings none) from that file, and lists each thing
// found that reaches out: a Node or Bun module other than node:path, a package, a global that
// reads the machine or the clock (process.env, Date.now, fetch, Bun.file...), a dynamic import,
// module state that changes (a top-level let/var), or a class in the decision itself.
// `bun scripts/check-pure-policy.ts` checks it; test/policy/evaluate-purity.test.ts plants each.
import ts from "typescript";
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

export const PURE_ENTRY = "src/policy/evaluate.ts";

/** Modules of the runtime that do no I/O. */
const PURE_CORE = new Set(["node:path", "path"]);
/** `Bun.x` that only computes. */
const PURE_BUN = new Set(["hash", "CryptoHasher"]);
/** Globals (and their members) that read the machine, the clock or the network. */
const IMPURE_GLOBAL = /^(process\.(?!platform$)\w+|Date\.now|performance\.now|Math\.random|crypto\.\w+|navigator\.\w+)$/;
const IMPURE_CALL = new Set(["fetch", "require", "setTimeout", "setInterval", "queueMicrotask", "setImmediate"]);

/** What `entry` and the code it imports do that a pure function may not; [] when nothing. */
export function impurities(entry: string, root = process.cwd()): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, via: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const name = relative(root, file);
    const chain = [...via, name];
    const at = (n: ts.Node, source: ts.SourceFile) => `${name}:${source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1}`;
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const say = (n: ts.Node, what: string) => problems.push(`${at(n, source)}: ${what} (reached by ${chain.join(" -> ")})`);
    for (const statement of source.statements) {
      const spec = moduleOf(statement);
      if (spec !== undefined) {
        if (spec.startsWith(".")) visit(resolveImport(file, spec), chain);
        else if (!PURE_CORE.has(spec)) say(statement, `imports ${spec}`);
      }
      if (ts.isVariableStatement(statement) && !(statement.declarationList.flags & ts.NodeFlags.Const)) say(statement, "module state (a top-level let or var)");
      if (file === resolve(root, entry) && ts.isClassDeclaration(statement)) say(statement, "a class in the decision (state of its own)");
    }
    const walk = (n: ts.Node) => {
      if (ts.isPropertyAccessExpression(n)) {
        const text = n.getText(source);
        if (IMPURE_GLOBAL.test(text)) say(n, `uses ${text}`);
        if (ts.isIdentifier(n.expression) && n.expression.text === "Bun" && !PURE_BUN.has(n.name.text)) say(n, `uses ${text}`);
      }
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && IMPURE_CALL.has(n.expression.text)) say(n, `calls ${n.expression.text}`);
      if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) say(n, "a dynamic import");
      if (ts.isNewExpression(n) && n.expression.getText(source) === "Date" && !n.arguments?.length) say(n, "reads the clock (new Date())");
      ts.forEachChild(n, walk);
    };
    walk(source);
  };
  visit(resolve(root, entry), []);
  return problems;
}

/** The module an import or re-export brings code from; undefined for one that brings only types. */
function moduleOf(statement: ts.Statement): string | undefined {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (clause?.isTypeOnly) return undefined;
    const named = clause?.namedBindings;
    const onlyTypes = clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
    return onlyTypes ? undefined : (statement.moduleSpecifier as ts.StringLiteral).text;
  }
  if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) return (statement.moduleSpecifier as ts.StringLiteral).text;
  return undefined;
}

function resolveImport(from: string, spec: string): string {
  const path = resolve(dirname(from), spec);
  for (const candidate of [path, `${path}.ts`, `${path}/index.ts`]) if (existsSync(candidate) && candidate.endsWith(".ts")) return candidate;
  throw new Error(`${from}: cannot find ${spec}`);
}

if (import.meta.main) {
  const problems = impurities(PURE_ENTRY);
  if (problems.length) {
    console.error(`${PURE_ENTRY} is not a pure function of its facts:\n${problems.join("\n")}`);
    process.exit(1);
  }
  console.log(`${PURE_ENTRY}: pure (no I/O, clock or state in what it imports)`);
}
