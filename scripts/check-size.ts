// The house rule, checked in `npm test`: no file in src/ over 400 lines, no function over 80.
// A function's length counts its whole body, closures included (a factory closure is one long
// function). `bun scripts/check-size.ts [--all]` lists offenders (or every function over 40 lines).
import ts from "typescript";
import { readFileSync } from "node:fs";
import { Glob } from "bun";

const MAX_FILE = 400;
const MAX_FUNCTION = 80;
const all = process.argv.includes("--all");

const problems: string[] = [];
const sizes: { where: string; lines: number }[] = [];
for (const file of new Glob("src/**/*.{ts,tsx}").scanSync(".")) {
  if (file.includes("/generated/")) continue;
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > MAX_FILE) problems.push(`${file}: ${lines} lines (at most ${MAX_FILE})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node, outer: boolean) => {
    let counted = outer;
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const n = lineOf(node.end) - lineOf(node.getStart(source)) + 1;
      const name = (node as ts.FunctionLikeDeclaration).name?.getText(source) ?? "(anonymous)";
      const where = `${file}:${lineOf(node.getStart(source))} ${name}`;
      // Nested functions are part of the outer one's length; report the outermost only.
      if (!outer) {
        sizes.push({ where, lines: n });
        if (n > MAX_FUNCTION) problems.push(`${where}: ${n} lines (at most ${MAX_FUNCTION})`);
      }
      counted = true;
    }
    ts.forEachChild(node, (c) => visit(c, counted && !ts.isClassLike(c)));
  };
  visit(source, false);
}

if (all) for (const s of sizes.sort((a, b) => b.lines - a.lines).filter((s) => s.lines > 40)) console.log(`${s.lines}\t${s.where}`);
const largest = sizes.sort((a, b) => b.lines - a.lines)[0];
if (problems.length) {
  console.error(`${problems.length} over the size rule (files ${MAX_FILE} lines, functions ${MAX_FUNCTION}):\n${problems.join("\n")}`);
  process.exit(1);
}
console.error(`sizes ok (largest function: ${largest?.where}, ${largest?.lines} lines)`);
