// The built-in catalog compiled into the binary: a few real stdio MCP servers from npm, pinned to
// exact versions and to the npm integrity (SRI sha512) of their tarballs, so a first use installs
// exactly what was reviewed. Their tools come from catalog-tools.json (listed from the real
// servers by scripts/gen-catalog-tools.ts), so tools/list shows real schemas before any install.
//
// Placeholders in `args` and `env` values, substituted by the loader (src/loader/install.ts):
//   ${workspace}  the project root pml serves (filesystem's allowed directory)
//   ${pml_home}   pml's state directory (~/.pml or PML_HOME)
import * as v from "valibot";
import catalogTools from "./catalog-tools.json" with { type: "json" };
import { StdioDescriptorSchema, type StdioDescriptor, type ToolInfoSchema } from "./descriptor.ts";

type CatalogTool = v.InferOutput<typeof ToolInfoSchema>;
const tools = catalogTools as Record<string, CatalogTool[] | undefined>;

function npmServer(ns: string, identifier: string, version: string, integrity: string, rest: Partial<StdioDescriptor> = {}): StdioDescriptor {
  return v.parse(StdioDescriptorSchema, {
    type: "stdio",
    package: { registryType: "npm", identifier, version },
    integrity,
    ...(tools[ns] ? { tools: tools[ns] } : {}),
    ...rest,
  });
}

export const builtinCatalog: Record<string, StdioDescriptor> = {
  memory: npmServer(
    "memory",
    "@modelcontextprotocol/server-memory",
    "2026.8.31",
    "sha512-ljj/3S4aGjxdNSQWw6gucKKGnTLdBPWxzapyY/MT2tOVyZwvxChvevXSLPwx59nKJAlVpUVW+cOlnVRXRwiqMQ==",
    {
      description: "Knowledge-graph memory: entities, relations and observations kept across sessions",
      // Outside the install directory, so a reinstall or an upgrade keeps the graph; in the
      // server's own data dir, the one place outside the workspace it may write when confined.
      // One knowledge graph per project: entities of one project never show up in another.
      env: { MEMORY_FILE_PATH: "${pml_home}/data/memory/${workspace_id}/memory.jsonl" },
    },
  ),
  // The built-in sandboxed `filesystem` module owns that namespace; the npm server stays reachable.
  server_filesystem: npmServer(
    "server_filesystem",
    "@modelcontextprotocol/server-filesystem",
    "2026.8.31",
    "sha512-kKaFkyAh6oipvc9+EAbJ552JafnMnOq5nzmzWkp1jJdBhTAAGpmIpWihUG1+rfNhmEFM98gUZDdCHCDD4v6a7Q==",
    {
      description: "Read, write, search and edit files, limited to the workspace",
      args: ["${workspace}"],
    },
  ),
  everything: npmServer(
    "everything",
    "@modelcontextprotocol/server-everything",
    "2026.8.31",
    "sha512-5U3OZh8Xq0Li4nA26l6uNvV9/1suMDuWSn+NjLZIhzinhMY6N3A4DCrxVecBGPf2PsNFKTEv5krxGPRwzxc7jQ==",
    {
      description: "The MCP reference test server: echo, sums, progress, sampling, elicitation and more",
      args: ["stdio"],
    },
  ),
  sequential_thinking: npmServer(
    "sequential_thinking",
    "@modelcontextprotocol/server-sequential-thinking",
    "2026.8.31",
    "sha512-/EMH++1j2e+VmHwpibw1IUPHxA0tcQY09Yo5/OIPwW/8irEKLAufJNGSZQhCK18n8TUvV6WwZyQOuaDKxe/CeQ==",
    { description: "Step-by-step reflective problem solving with revisable thoughts" },
  ),
};

/**
 * Catalog servers that exist to exercise MCP itself (the reference test server: echo, sums,
 * simulated logging, long-running operations, tiny images), not to do a user's task: discover ranks
 * their tools below task tools unless the request names the server.
 */
export const DEMO_SERVERS: ReadonlySet<string> = new Set(["everything"]);
