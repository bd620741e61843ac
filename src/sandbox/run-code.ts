// Runs agent code (`execute`) in the sandbox: the code is the body of an async function with `mcp`
// and `args` in scope. Each run gets a fresh context (nothing carries over between runs) on a
// pooled engine; a spare context is prepared while idle.
import type { QuickJSHandle } from "quickjs-emscripten-core";
import { type CallState, type CallTool, DEFAULT_LIMITS, Engine, jsonPayload, limitsFrom, newCall, type Realm, type SandboxHost, type SandboxLimits } from "./engine.ts";
import { SandboxError } from "./errors.ts";

export interface RunCodeOptions {
  /** The body of an async function with `mcp` and `args` in scope; TypeScript or JavaScript. */
  code: string;
  args?: unknown;
  callTool?: CallTool;
  host?: SandboxHost;
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
}

const WRAPPER_HEAD = "(async function (mcp, args) {\n";
const WRAPPER_TAIL = "\n})";

const MAX_IDLE_BLANK = 2;
const idleBlank: Engine[] = [];

let transpiler: Bun.Transpiler | undefined;

interface Compiled {
  fn: QuickJSHandle;
  lineOffset: number;
  mapLine?: (line: number) => number;
}

/** JavaScript is run as written (exact line numbers); code that does not parse as JavaScript is
 * transpiled as TypeScript first, and lines are mapped back by matching the code's words. */
function prepare(code: string, engine: Engine, realm: Realm, call: CallState): Compiled {
  try {
    return { fn: engine.compile(call, realm, WRAPPER_HEAD + code + WRAPPER_TAIL), lineOffset: 1 };
  } catch (e) {
    if (!(e instanceof SandboxError) || e.kind !== "syntax") throw e;
    transpiler ??= new Bun.Transpiler({ loader: "ts" });
    let out: string;
    try {
      out = transpiler.transformSync(`async function __pml_main(mcp, args) {\n${code}\n}`);
    } catch {
      // Not TypeScript either: the JavaScript error, with its exact line, says the most.
      if (/^\s*import\s/m.test(code)) {
        throw new SandboxError("import statements are not available in the sandbox; call tools with await mcp.<namespace>.<action>(args)", "syntax");
      }
      throw e;
    }
    const start = out.indexOf("async function __pml_main");
    const source = `(${out.slice(start).trim().replace(/;$/, "")})`;
    call.lineOffset = 0;
    call.mapLine = lineMapper(code, source);
    return { fn: engine.compile(call, realm, source), lineOffset: 0, mapLine: call.mapLine };
  }
}

function words(line: string): Set<string> {
  return new Set(line.match(/[A-Za-z_$][\w$]*|\d+|"[^"]*"|'[^']*'|`[^`]*`/g) ?? []);
}

/** Maps a line of transpiled code to the user's line with the most words in common. */
function lineMapper(userCode: string, compiled: string): (line: number) => number {
  const userLines = userCode.split("\n").map(words);
  const compiledLines = compiled.split("\n");
  return (line) => {
    const target = words(compiledLines[line - 1] ?? "");
    let best = 0;
    let bestScore = 0;
    userLines.forEach((ws, i) => {
      let score = 0;
      for (const w of target) if (ws.has(w)) score++;
      if (score > bestScore) {
        bestScore = score;
        best = i + 1;
      }
    });
    return best || line;
  };
}

/** Runs agent code as the body of an async function with `mcp` and `args` in scope. */
export async function runCode(opts: RunCodeOptions): Promise<{ value: unknown }> {
  const limits = limitsFrom(opts.limits);
  const call = newCall({ limits, callTool: opts.callTool, host: opts.host, file: "code.js", lineOffset: 1, signal: opts.signal });
  call.lastLine = opts.code.split("\n").length;
  const payload = JSON.stringify({ args: JSON.parse(jsonPayload(opts.args ?? {})) });
  const engine = idleBlank.pop() ?? (await Engine.create());
  let realm: Realm | undefined;
  try {
    realm = engine.spare ?? engine.newRealm(call);
    engine.spare = undefined;
    const { fn } = prepare(opts.code, engine, realm, call);
    try {
      return { value: await engine.run(call, realm, "callCode", fn, payload) };
    } finally {
      if (!engine.dead) fn.dispose();
    }
  } finally {
    if (realm && !engine.dead) {
      try {
        realm.dispose();
      } catch {
        engine.dead = true;
      }
    }
    if (engine.usable && idleBlank.length < MAX_IDLE_BLANK) {
      idleBlank.push(engine);
      setImmediate(() => prepareSpare(engine));
    } else {
      engine.dispose();
    }
  }
}

function prepareSpare(engine: Engine): void {
  if (engine.spare || !engine.usable || !idleBlank.includes(engine)) return;
  try {
    engine.spare = engine.newRealm(newCall({ limits: { ...DEFAULT_LIMITS }, file: "code.js", lineOffset: 1 }));
  } catch {
    engine.dead = true;
    idleBlank.splice(idleBlank.indexOf(engine), 1);
  }
}

/** Drops every pooled engine (tests, shutdown). */
export function clearCodePool(): void {
  for (const engine of idleBlank.splice(0)) engine.dispose();
}
