// Checked in `npm test`: approve-then-run is written once. Every tool call, whoever makes it (a
// client, `call`, module code, `execute` code, a capability), goes through `Invoker.call`
// (src/gateway/dispatch/invoke.ts); nothing else asks the gate, asks the user in-line, records a yes, or runs
// a backend. A second path would be a second place to get "ask before running" wrong.
// `bun scripts/check-one-gate.ts` lists each call found outside its place.
import ts from "typescript";
import { readFileSync } from "node:fs";
import { Glob } from "bun";

const INVOKER = "src/gateway/dispatch/invoke.ts";

/** Each step of approve-then-run, by the method called, and where it may be called (file ->
 * enclosing functions; "*": anywhere in that file). */
const STEPS: Record<string, { what: string; at: Record<string, string[]> }> = {
  evaluate: { what: "the gate's decision", at: { [INVOKER]: ["callChecked"] } },
  // `lane`: the short lane (dispatch/lane.ts) starts with the same decision, in the invoker.
  fast: { what: "the gate's cached decision", at: { [INVOKER]: ["call", "lane"] } },
  // A session's channel also takes the answers continuations bring (their own protocol), and a
  // child server's sampling request is asked about in a form: neither runs a tool.
  ask: { what: "asking the user in-line", at: { [INVOKER]: ["callChecked"] } },
  askByForm: { what: "asking the user in a form", at: { "src/policy/workflow-channel.ts": ["*"], "src/policy/sampling-approval.ts": ["*"] } },
  approve: {
    what: "recording the user's yes",
    at: { [INVOKER]: ["callChecked"], "src/policy/asker.ts": ["*"], "src/policy/approval-channel.ts": ["*"], "src/policy/state-channel.ts": ["*"] },
  },
  // A backend's run (`backends.run`, `inProcess[ns].run`): only after the decision.
  run: { what: "running a tool's backend", at: { [INVOKER]: ["runChecked"] } },
  relayStdio: { what: "sending a call to a pooled server by the short lane", at: { [INVOKER]: ["lane"] } },
};

/** What the gate offers: a decision and its cache, and the listing check for `discover`. */
const GATE_METHODS = new Set(["fast", "evaluate", "startToList"]);

/** The pure decision (src/policy/evaluate.ts) is asked by the gate only, which gathers its facts:
 * a second caller could decide from facts of its own and run around the invoker. */
const PURE_DECISIONS = new Set(["evaluate", "listingRefusal"]);
const GATE = "src/policy/gate.ts";

const problems: string[] = [];
let gates = 0;
for (const file of new Glob("src/**/*.ts").scanSync(".")) {
  if (file.startsWith("src/ui/page/")) continue;
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const where = (n: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1}`;
  const visit = (node: ts.Node, fn: string) => {
    let inside = fn;
    if ((ts.isMethodDeclaration(node) || ts.isFunctionDeclaration(node)) && node.name) inside = node.name.getText(source);
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) checkCall(node.expression, inside, where(node));
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "askByForm") checkStep("askByForm", file, inside, where(node));
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && PURE_DECISIONS.has(node.expression.text) && file !== GATE)
      problems.push(`${where(node)}: the gate's decision (${node.expression.text}) outside ${GATE}; ask Invoker.call instead`);
    if (ts.isNewExpression(node) && node.expression.getText(source) === "Gate") gates++;
    if (file === GATE && ts.isClassDeclaration(node) && node.name?.text === "Gate") checkGate(node, source);
    ts.forEachChild(node, (c) => visit(c, inside));
  };
  const checkCall = (access: ts.PropertyAccessExpression, fn: string, at: string) => {
    const name = access.name.text;
    const receiver = access.expression.getText(source);
    // Whatever is called on the gate is called by the invoker only.
    if (/\bgate$/.test(receiver) && file !== INVOKER) problems.push(`${at}: ${receiver}.${name}() outside ${INVOKER}; ask Invoker.call instead`);
    if (!Object.hasOwn(STEPS, name)) return;
    // `run` names many things (a program, a tool's handler); a backend is reached through `backends`.
    if (name === "run" && !/\bbackends\b|\binvoker$/.test(receiver)) return;
    // `approve` is the asker's, `ask` a session's approval channel's; `fast` and `evaluate` the gate's.
    if (name === "approve" && !/\basker\b|\bapprovals\b|^this$/.test(receiver)) return;
    if (name === "ask" && !/\bchannel\b/.test(receiver)) return;
    if ((name === "fast" || name === "evaluate") && !/\bgate\b|^this$/.test(receiver)) return;
    if (receiver === "this" && !file.startsWith("src/policy/")) return;
    checkStep(name, file, fn, at);
  };
  visit(source, "");
}

function checkStep(name: string, file: string, fn: string, at: string): void {
  const step = STEPS[name]!;
  const allowed = step.at[file];
  if (allowed && (allowed.includes("*") || allowed.includes(fn))) return;
  problems.push(`${at}: ${step.what} (${name}) in ${fn || "top level"}; approve-then-run belongs to Invoker.call in ${INVOKER}`);
}

function checkGate(node: ts.ClassDeclaration, source: ts.SourceFile): void {
  for (const m of node.members) {
    if (!ts.isMethodDeclaration(m) || !m.name) continue;
    const isPrivate = m.modifiers?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword);
    const name = m.name.getText(source);
    if (!isPrivate && !GATE_METHODS.has(name)) problems.push(`src/policy/gate.ts: Gate.${name} is a new entry to the gate; it offers ${[...GATE_METHODS].join(", ")} only`);
  }
}

if (gates !== 1) problems.push(`src/: ${gates} places make a Gate; one gate decides for every origin (tool-host.ts)`);
if (problems.length) {
  console.error(`approve-then-run is not in one place:\n${problems.join("\n")}`);
  process.exit(1);
}
console.log("approve-then-run: one place (Invoker.call)");
