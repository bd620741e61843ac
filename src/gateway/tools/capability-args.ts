// A capability's arguments checked as a function's, before its code runs: an unknown key is refused
// with the parameter it most likely meant, a missing required one by name (with the example its
// first run gave, never that value itself), and only defaults the agent declared fill in.
import { unknownKeyHint } from "../dispatch/did-you-mean.ts";
import { argumentsProblem } from "../dispatch/validate-args.ts";

type Property = { default?: unknown; examples?: unknown };

/** The arguments the code runs with (declared defaults filled in), or why it does not run. */
export async function capabilityArguments(
  display: string,
  schema: Record<string, unknown>,
  args: Record<string, unknown>,
): Promise<{ args: Record<string, unknown> } | { error: string }> {
  const refuse = (why: string) => ({
    error: `Invalid arguments for cap:${display}: ${why}. Nothing was run; fix the arguments (see its parameters with dns:whois or discover) and call again.`,
  });
  const raw = schema?.properties;
  const properties = (raw && typeof raw === "object" && !Array.isArray(raw) ? raw : undefined) as Record<string, Property> | undefined;
  const open = schema?.additionalProperties !== undefined && schema.additionalProperties !== false;
  if (properties && !open) {
    const names = Object.keys(properties);
    const unknown = Object.keys(args).filter((k) => !(k in properties));
    if (unknown.length)
      return refuse(
        names.length
          ? unknown.map((k) => `"${k}" is not a parameter${unknownKeyHint(k, names)}`).join("; ")
          : `it takes no arguments (${unknown.map((k) => `"${k}"`).join(", ")} given)`,
      );
  }
  const filled = { ...args };
  for (const [k, p] of Object.entries(properties ?? {})) if (!(k in filled) && p && typeof p === "object" && "default" in p) filled[k] = p.default;
  const required = Array.isArray(schema?.required) ? (schema.required as unknown[]).filter((k): k is string => typeof k === "string") : [];
  const missing = required.filter((k) => !(k in filled));
  if (missing.length) return refuse(missing.map((k) => `"${k}" is required${exampleOf(properties?.[k])}`).join("; "));
  const problem = await argumentsProblem(`cap:${display}`, schema, filled, true);
  if (problem !== undefined)
    return { error: problem.replace(/see the tool's input schema with `discover` \{"namespace": "cap"\}/, "see its parameters with dns:whois or discover") };
  return { args: filled };
}

/** ` (e.g. "a.json", what its first run used: pass it to use it again)`; empty without an example. */
function exampleOf(p: Property | undefined): string {
  const ex = p && Array.isArray(p.examples) && p.examples.length ? p.examples[0] : undefined;
  if (ex === undefined) return "";
  const shown = JSON.stringify(ex);
  return ` (e.g. ${shown.length > 120 ? `${shown.slice(0, 117)}...` : shown}, the value a run of it used: it is no longer filled in, pass it to use it again)`;
}
