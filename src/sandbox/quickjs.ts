// Loads QuickJS (compiled to WebAssembly, see quickjs-wasm.ts) for the sandbox. The sync variant
// is used: host functions hand the guest a promise and settle it later, which is faster than
// asyncify and lets the guest await several host calls at once (asyncify suspends the whole
// WebAssembly stack, one call at a time).
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";
import { log } from "../log.ts";
import { compiledModule } from "./quickjs-wasm.ts";

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
