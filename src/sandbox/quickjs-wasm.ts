// The QuickJS WebAssembly module, compiled once. The .wasm file is imported as a file asset, so
// `bun build --compile` embeds it in dist/pml and it is read from the binary's own filesystem at
// run time. Apart from quickjs.ts so that pml's main thread, which only compiles the module for
// its workers, does not load QuickJS's JavaScript glue.
import wasmPath from "@jitl/quickjs-wasmfile-release-sync/wasm" with { type: "file" };

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

/** Lets the compiled module go (no worker needs it any more); the next run compiles it again. */
export function forgetCompiledModule(): void {
  compiled = undefined;
}
