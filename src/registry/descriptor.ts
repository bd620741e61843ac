// What a namespace resolves to. Every descriptor, wherever it came from (built-in catalog,
// .pml.json private_mcps, a registry), is validated against these schemas before use.
import * as v from "valibot";

export const EnvName = v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name"));

export const ToolInfoSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1)),
  description: v.optional(v.string()),
  inputSchema: v.optional(v.record(v.string(), v.unknown()), { type: "object" }),
  outputSchema: v.optional(v.record(v.string(), v.unknown())),
  annotations: v.optional(v.record(v.string(), v.unknown())),
});

export const NpmPackageSchema = v.object({
  registryType: v.literal("npm"),
  identifier: v.pipe(v.string(), v.regex(/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/, "an npm package name")),
  version: v.pipe(v.string(), v.regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, "an exact version (x.y.z)")),
  /** The bin to run when the package has several; default: the only one, or the package name's. */
  bin: v.optional(v.string()),
  args: v.optional(v.array(v.string())),
});

/** A stdio MCP server: an npm package pml installs, or a plain command (private servers). */
export const StdioDescriptorSchema = v.object({
  type: v.literal("stdio"),
  package: v.optional(NpmPackageSchema),
  /** npm SRI of the package tarball (sha512-...); required for packages. */
  integrity: v.optional(v.pipe(v.string(), v.regex(/^sha512-[A-Za-z0-9+/]+=*$/, "an npm SRI (sha512-...)"))),
  /** Hex SHA-256 of the package file, when the source (server.json `fileSha256`) pins one instead of an SRI. */
  file_sha256: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, "a hex SHA-256"))),
  command: v.optional(v.pipe(v.string(), v.minLength(1))),
  args: v.optional(v.array(v.string())),
  env: v.optional(v.record(v.string(), v.string())),
  env_required: v.optional(v.array(EnvName), []),
  tools: v.optional(v.array(ToolInfoSchema)),
  warnings: v.optional(v.array(v.string())),
  description: v.optional(v.string()),
  /** Run in the OS sandbox (pool/confine-server.ts); default on for registries and the catalog,
   * off for the user's own private_mcps commands. */
  confine: v.optional(v.boolean()),
  /** The server says it needs the network; a confined one gets it only when the user lists its
   * namespace in .pml.json sandbox.server_net. */
  network: v.optional(v.boolean()),
});

/** A tool served by the cloud endpoint; keys in env_required are forwarded (BYOK). */
export const CloudDescriptorSchema = v.object({
  type: v.literal("cloud"),
  proxy_to: v.optional(v.string()),
  env_required: v.optional(v.array(EnvName), []),
  tools: v.optional(v.array(ToolInfoSchema)),
  description: v.optional(v.string()),
});

/** A remote MCP server over Streamable HTTP. */
export const HttpDescriptorSchema = v.object({
  type: v.literal("http"),
  url: v.pipe(v.string(), v.url()),
  headers: v.optional(v.record(v.string(), v.string())),
  env_required: v.optional(v.array(EnvName), []),
  /** A client registered with the server's authorization server beforehand (servers without
   * dynamic registration). The secret is a literal or `${VAR}`; only a user's own entry may have one. */
  oauth: v.optional(v.object({ client_id: v.pipe(v.string(), v.minLength(1)), client_secret: v.optional(v.string()) })),
  tools: v.optional(v.array(ToolInfoSchema)),
  description: v.optional(v.string()),
});

/** What module code may do beyond reading the workspace: write files, reach these hosts. */
export const ModulePermissionsSchema = v.object({
  write: v.optional(v.boolean(), false),
  net: v.optional(v.array(v.string()), []),
});

/** Module code run in the sandbox: built-in local MCPs, registry modules, learned capabilities. */
export const ModuleDescriptorSchema = v.object({
  type: v.literal("module"),
  /** Transpiled JavaScript; each tool is an exported async function named after its action. */
  code: v.string(),
  tools: v.array(ToolInfoSchema),
  routing: v.optional(v.picklist(["local", "cloud"])),
  permissions: v.optional(ModulePermissionsSchema),
  env_required: v.optional(v.array(EnvName), []),
  description: v.optional(v.string()),
  /** Where it came from, for messages: "builtin", a registry URL, ".pml.json". */
  source: v.optional(v.string()),
});

export const DescriptorSchema = v.variant("type", [StdioDescriptorSchema, CloudDescriptorSchema, HttpDescriptorSchema, ModuleDescriptorSchema]);

export type StdioDescriptor = v.InferOutput<typeof StdioDescriptorSchema>;
export type HttpDescriptor = v.InferOutput<typeof HttpDescriptorSchema>;
export type ModuleDescriptor = v.InferOutput<typeof ModuleDescriptorSchema>;
export type Descriptor = v.InferOutput<typeof DescriptorSchema>;
