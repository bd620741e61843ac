// The host side of ctx.fs / ctx.exec / ctx.fetch: the only ways module code reaches the machine.
// Every path goes through the workspace path guard; writes need the write grant, exec the exec
// grant, fetch an allowed host. Every refusal is reported to `audit` before the error reaches
// the guest. The checks are in host-checks.ts; each family of ops in a module of its own.
import type { SandboxHost } from "./call-state.ts";
import { HostChecks, type HostOptions } from "./host-checks.ts";
import { execOp } from "./host-exec.ts";
import { fetchOp } from "./host-fetch.ts";
import { fileOps } from "./host-files.ts";

export function createHost(opts: HostOptions): SandboxHost {
  const checks = new HostChecks(opts);
  return {
    ops: { ...fileOps(checks), exec: execOp(checks), fetch: fetchOp(checks) },
    refused: (attempted, reason) => checks.audit(attempted, reason),
  };
}
