// `pml doctor`'s checks of what .pml.json names: permission patterns whose namespace looks like a
// typo (it protects or allows nothing), and variables its private_mcps entries need but that are unset.
import { closest } from "../../config/did-you-mean.ts";
import type { ProjectConfig } from "../../config/pml-json.ts";
import { EnvResolver, envRequestFor } from "../../env/env-resolver.ts";
import { builtinCatalog } from "../../registry/catalog.ts";
import { privateDescriptor } from "../../registry/resolve.ts";
import { builtinModules } from "../../sandbox/builtins/builtins.ts";
import type { Check } from "./doctor.ts";

/** pml's own in-process namespaces (gateway/tool-host.ts). */
const IN_PROCESS = ["cap", "dns", "meta", "learn"];

/**
 * A deny, ask or allow pattern whose namespace is none pml knows here but one letter or two off one
 * it does ("memroy:delete_entities"): it matches nothing, so a deny protects nothing. A namespace
 * far from every known one may be a registry's, which only the registry knows: not flagged.
 */
export function patternChecks(config: ProjectConfig): Check[] {
  const known = [...Object.keys(builtinCatalog), ...Object.keys(builtinModules()), ...IN_PROCESS, ...Object.keys(config.private_mcps ?? {})];
  const checks: Check[] = [];
  for (const list of ["deny", "ask", "allow"] as const) {
    for (const pattern of config.permissions[list] ?? []) {
      const ns = pattern.split(":")[0]!;
      if (ns.includes("*") || known.includes(ns)) continue;
      const near = closest(ns, known);
      if (!near) continue;
      const effect = list === "deny" ? "protects nothing" : list === "ask" ? "asks for nothing" : "allows nothing";
      checks.push({
        name: "permissions",
        ok: true,
        warn: true,
        detail: `${list} pattern "${pattern}" names the namespace "${ns}", which pml does not know, so it ${effect}; did you mean "${near}"?`,
      });
    }
  }
  return checks;
}

/** private_mcps entries that need variables set neither in pml's environment nor in the workspace .env. */
export function privateEnvChecks(root: string, config: ProjectConfig): Check[] {
  const resolver = new EnvResolver({ workspace: root });
  const checks: Check[] = [];
  for (const [ns, entry] of Object.entries(config.private_mcps ?? {})) {
    let missing: string[];
    try {
      missing = resolver.plan(envRequestFor(ns, privateDescriptor(ns, entry), "user", { substitute: (s) => resolver.substitute(s) })).missing;
    } catch {
      continue; // a malformed entry: the gateway says so when it is used
    }
    if (!missing.length) continue;
    const vars = missing.length > 1 ? `the variables ${missing.join(", ")}, which are` : `the variable ${missing[0]}, which is`;
    checks.push({
      name: "private_mcps",
      ok: true,
      warn: true,
      detail: `${ns} needs ${vars} not set; add ${missing.map((m) => `${m}=...`).join(", ")} to the workspace .env (${root}/.env) or to the "env" of the pml server in .mcp.json`,
    });
  }
  return checks;
}
