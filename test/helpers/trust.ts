// Tests play the user who trusts the .pml.json they wrote (as `pml trust --yes` would): the real
// trust record, written with pml's own modules into the test's PML_HOME.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reviewTrust, trustAll } from "../../src/policy/trust/review.ts";

/** Trusts what the workspace's .pml.json grants now. `home`: the PML_HOME pml runs with (default
 * ~/.pml, as for a pml started without PML_HOME). */
export async function trustWorkspace(workspace: string, home?: string): Promise<void> {
  const env = { ...process.env, PML_HOME: home, HOME: process.env.HOME };
  await trustAll(await reviewTrust(workspace, env), env);
}

/** Writes .pml.json and trusts it. */
export async function writeTrustedConfig(workspace: string, config: unknown, home?: string): Promise<void> {
  writeFileSync(join(workspace, ".pml.json"), typeof config === "string" ? config : JSON.stringify(config));
  await trustWorkspace(workspace, home);
}
