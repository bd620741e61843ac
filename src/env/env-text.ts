// What the user reads about an environment plan (src/env/env-resolver.ts): which variables an
// approval would give and where, and what to set when some are missing. Text only, no lookups:
// the gate's decision (src/policy/evaluate.ts) builds its messages with it.
import type { EnvPlan } from "./env-resolver.ts";

/** Sentences for an approval prompt: which variables go where, which are withheld. */
export function describeEnvPlan(plan: EnvPlan): string {
  const parts: string[] = [];
  const names = [...plan.ungranted];
  if (names.length) {
    const list = names.map((n) => `${n} (from ${plan.from[n] === ".env" ? "the workspace .env" : "your environment"})`).join(", ");
    parts.push(
      `It asks for your ${names.length > 1 ? "variables" : "variable"} ${list}, which will be given to ${plan.request.destination} (namespace "${plan.request.ns}"). ` +
        `"Always" also adds ${names.length > 1 ? "them" : "it"} to .pml.json env_grants.${plan.request.ns}.`,
    );
  }
  if (plan.withheld.length) parts.push(`It also asks for ${plan.withheld.join(", ")}, which pml never gives to a server, module or header (it goes only to cloud.url).`);
  return parts.join(" ");
}

/** The message for a plan with variables that are set nowhere. */
export function missingMessage(plan: EnvPlan, label: string, workspace: string): string {
  const m = plan.missing;
  const vars = m.length === 1 ? `the environment variable ${m[0]}` : `the environment variables ${m.join(", ")}`;
  return (
    `${label} needs ${vars}, which ${m.length === 1 ? "is" : "are"} not set. ` +
    `Set ${m.length === 1 ? "it" : "them"} in the "env" of the pml server in .mcp.json, or add ${m.map((x) => `${x}=...`).join(", ")} to the workspace .env file (${workspace}/.env), then retry.`
  );
}
