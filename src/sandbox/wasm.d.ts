// The QuickJS .wasm, imported `with { type: "file" }`: its path (inside the compiled binary: /$bunfs/...).
declare module "@jitl/quickjs-wasmfile-release-sync/wasm" {
  const path: string;
  export default path;
}
