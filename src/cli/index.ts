// The command map: each command's module loads only when that command runs, so `pml stdio`
// pays for nothing but serving.
import type { CommandDef } from "citty";

type Lazy = () => Promise<CommandDef<any>>;
const load = (p: Promise<{ default: CommandDef<any> }>) => p.then((m) => m.default);

export const commands: Record<string, Lazy> = {
  try: () => load(import("./try.ts")),
  init: () => load(import("./init.ts")),
  stdio: () => load(import("./stdio.ts")),
  serve: () => load(import("./serve.ts")),
  registry: () => load(import("./registry.ts")),
  trust: () => load(import("./trust.ts")),
  doctor: () => load(import("./doctor.ts")),
  licenses: () => load(import("./licenses.ts")),
  ui: () => load(import("./ui.ts")),
};
