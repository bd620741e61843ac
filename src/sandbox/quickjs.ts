// Loads QuickJS (compiled to WebAssembly) for the sandbox. The .wasm file is imported as a file
// asset, so `bun build --compile` embeds it in dist/pml and it is read from the binary's own
// filesystem at run time. The sync variant is used: host functions hand the guest a promise and
// settle it later, which is faster than asyncify and lets the guest await several host calls at
// once (asyncify suspends the whole WebAssembly stack, one call at a time).
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import wasmPath from "@jitl/quickjs-wasmfile-release-sync/wasm" with { type: "file" };
import { log } from "../log.ts";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";

let compiled: Promise<WebAssembly.Module> | undefined;

/** A sandbox worker is handed the module compiled once by pml's main thread: no compile per worker. */
export function useCompiledModule(module: WebAssembly.Module): void {
  compiled = Promise.resolve(module);
}

export function compiledModule(): Promise<WebAssembly.Module> {
  compiled ??= Bun.file(wasmPath)
    .arrayBuffer()
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((e) => {
      compiled = undefined;
      throw new Error(`could not load the sandbox engine (QuickJS WebAssembly at ${wasmPath}): ${e?.message ?? e}`);
    });
  return compiled;
}

/**
 * A new, separate QuickJS WebAssembly instance (its own linear memory). Each sandbox instance gets
 * its own: QuickJS's stack check does not see WebAssembly locals, so deeply nested guest code can
 * overflow the host stack mid-execution; the instance it ran in is then thrown away whole, and no
 * other sandbox shares its memory. Compiling happens once; instantiating costs about 1 ms.
 */
export async function newQuickJSInstance(): Promise<QuickJSWASMModule> {
  const wasmModule = await compiledModule();
  // Engine messages (an abort while discarding a spent instance) are for debugging, not stderr noise.
  const quiet = (...parts: unknown[]) => log.debug("sandbox engine:", ...parts);
  return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmModule, emscriptenModule: { print: quiet, printErr: quiet } as any }));
}
