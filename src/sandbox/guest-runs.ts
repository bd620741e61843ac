// Inside a sandbox worker: runs `execute` code and module functions on QuickJS engines kept warm
// in this worker. `execute` code gets a fresh context per run on a pooled engine (a spare context
// is prepared while idle); a module stays loaded in its engine between calls, one call at a time
// per engine. An engine that hit a limit, or grew a large heap, is thrown away.
import type { QuickJSHandle } from "quickjs-emscripten-core";
import { type CallState, type ForwardHostCall, newCall } from "./call-state.ts";
import { Engine, type Realm } from "./engine.ts";
import { SandboxError } from "./errors.ts";
import { DEFAULT_LIMITS, type SandboxLimits } from "./limits.ts";

export interface GuestRun {
  limits: SandboxLimits;
  /** JSON: {args} for code, {args, env, ops} for a module function. */
  payload: string;
  forward: ForwardHostCall;
  refused: (attempted: string, reason: string) => void;
  signal: AbortSignal;
}

/** An engine whose WebAssembly heap grew past this is not kept: its memory goes back to the OS. */
export const KEEP_HEAP_BYTES = 24 * 1024 * 1024;

/** Set once an engine was dropped for its size: its memory is only given back when this worker ends. */
let shed = false;

function keep(engine: Engine): boolean {
  if (engine.heapBytes > KEEP_HEAP_BYTES) shed = true;
  return engine.usable && !shed;
}

// ---- execute code ----

const WRAPPER_HEAD = "(async function (mcp, args) {\n";
const WRAPPER_TAIL = "\n})";
const MAX_IDLE_BLANK = 2;
const idleBlank: Engine[] = [];
let transpiler: Bun.Transpiler | undefined;

/** JavaScript is run as written (exact line numbers); code that does not parse as JavaScript is
 * transpiled as TypeScript first, and lines are mapped back by matching the code's words. */
function prepare(code: string, engine: Engine, realm: Realm, call: CallState): QuickJSHandle {
  try {
    return engine.compile(call, realm, WRAPPER_HEAD + code + WRAPPER_TAIL);
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
    return engine.compile(call, realm, source);
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
export async function runGuestCode(code: string, run: GuestRun): Promise<unknown> {
  const call = newCall({ limits: run.limits, forward: run.forward, refused: run.refused, file: "code.js", lineOffset: 1, signal: run.signal });
  call.lastLine = code.split("\n").length;
  const engine = idleBlank.pop() ?? (await Engine.create());
  let realm: Realm | undefined;
  try {
    realm = engine.spare ?? engine.newRealm(call);
    engine.spare = undefined;
    const fn = prepare(code, engine, realm, call);
    try {
      return await engine.run(call, realm, "callCode", fn, run.payload);
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
    if (keep(engine) && idleBlank.length < MAX_IDLE_BLANK) {
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

// ---- module functions ----

interface ModuleInstance {
  engine: Engine;
  realm: Realm;
}

const MAX_IDLE_PER_MODULE = 2;
const MAX_IDLE_MODULES = 8;

// Keyed by the module's hash; insertion order doubles as LRU order (a key is re-inserted when used).
const idleModules = new Map<string, ModuleInstance[]>();

function idleModuleCount(): number {
  let n = 0;
  for (const list of idleModules.values()) n += list.length;
  return n;
}

function takeModule(key: string): ModuleInstance | undefined {
  const list = idleModules.get(key);
  const inst = list?.pop();
  if (list && list.length === 0) idleModules.delete(key);
  return inst;
}

function releaseModule(key: string, inst: ModuleInstance): void {
  if (!keep(inst.engine)) return inst.engine.dispose();
  const list = idleModules.get(key) ?? [];
  idleModules.delete(key);
  if (list.length >= MAX_IDLE_PER_MODULE) {
    inst.engine.dispose();
  } else {
    list.push(inst);
  }
  idleModules.set(key, list);
  while (idleModuleCount() > MAX_IDLE_MODULES) {
    const [oldestKey, oldest] = idleModules.entries().next().value!;
    oldest.shift()?.engine.dispose();
    if (oldest.length === 0) idleModules.delete(oldestKey);
  }
}

/** The modules this worker holds loaded, so pml sends their calls here. */
export function warmModules(): string[] {
  return [...idleModules.keys()];
}

/** Calls `fn(args, ctx)` exported by module `code`; `key` identifies the code for the warm pool. */
export async function runGuestModule(code: string, key: string, fn: string, reuse: boolean, run: GuestRun): Promise<unknown> {
  const call = newCall({ limits: run.limits, forward: run.forward, refused: run.refused, file: "module.js", lineOffset: 0, signal: run.signal });
  let inst = reuse ? takeModule(key) : undefined;
  if (!inst) {
    const engine = await Engine.create();
    try {
      const realm = engine.newRealm(call);
      inst = { engine, realm };
      engine.loadModule(call, realm, code);
    } catch (e) {
      engine.dispose();
      throw e;
    }
  }
  const { engine, realm } = inst;
  try {
    const { vm } = realm;
    const fnHandle = engine.enter(call, () => vm.getProp(realm.exports!, fn));
    if (vm.typeof(fnHandle) !== "function") {
      fnHandle.dispose();
      const names = engine.enter(call, () =>
        vm
          .getOwnPropertyNames(realm.exports!)
          .unwrap()
          .map((h) => h.consume((x) => vm.getString(x))),
      );
      throw new SandboxError(`the module has no exported function "${fn}" (it exports: ${names.join(", ") || "nothing"})`, "export");
    }
    try {
      return await engine.run(call, realm, "callExport", fnHandle, run.payload);
    } finally {
      if (!engine.dead) fnHandle.dispose();
    }
  } finally {
    if (reuse) releaseModule(key, inst);
    else engine.dispose();
  }
}

/** True when this worker holds more memory than a warm worker should keep. */
export function heavy(): boolean {
  let total = 0;
  for (const e of idleBlank) total += e.heapBytes;
  for (const list of idleModules.values()) for (const inst of list) total += inst.engine.heapBytes;
  return shed || total > 4 * KEEP_HEAP_BYTES;
}
