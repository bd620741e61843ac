// A namespace resolved to where its tools come from: the descriptor, where it was found, and
// whether it is the user's own config (what the environment resolver and approvals go by).
import type { ToolInfo } from "../mcp/types.ts";
import type { Descriptor } from "./descriptor.ts";

/** The user's own config for one destination, or a registry's / the catalog's. */
export type EnvOrigin = "user" | "other";

export interface Resolved {
  ns: string;
  descriptor: Descriptor | InProcessDescriptor;
  source: string;
  /** What the environment resolver treats it as: the user's own config, or a registry's / the catalog's. */
  origin: EnvOrigin;
}

/** pml's own namespaces, served in the gateway's process (capabilities, dns, learn, meta). */
export interface InProcessDescriptor {
  type: "inprocess";
  description: string;
  env_required: string[];
  tools?: ToolInfo[];
}
