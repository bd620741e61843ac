// Environment plans for tests that call an install, a remote server or the cloud directly, made by
// the real resolver (src/env/env-resolver.ts) as the gateway makes them.
import type { EnvSource } from "../../src/config/settings.ts";
import { EnvResolver, envRequestFor, type EnvPlan } from "../../src/env/env-resolver.ts";
import type { Descriptor } from "../../src/registry/descriptor.ts";

export interface PlanWhere {
  workspace: string;
  /** Where values are looked up before the workspace .env; default process.env. */
  env?: EnvSource;
  /** The descriptor's tools run in the cloud (BYOK keys go as headers to cloud.url). */
  cloudRouted?: boolean;
}

/** The plan for a descriptor the user wrote (.pml.json private_mcps): what it asks is granted. */
export function userPlan(ns: string, descriptor: Descriptor, where: PlanWhere): EnvPlan {
  const resolver = new EnvResolver({ workspace: where.workspace, env: where.env });
  return resolver.plan(envRequestFor(ns, descriptor, "user", { cloudRouted: where.cloudRouted, substitute: (s) => resolver.substitute(s) }));
}
