// Module code from a registry -> a ModuleDescriptor: reject imports, transpile TypeScript once with
// Bun's transpiler, read `__meta__` as data, and check that every declared tool is an exported
// function. The result's `code` is ES module text (`export async function <tool>(args, ctx)`),
// the form the sandbox loads.
import * as v from "valibot";
import { EnvName, ModulePermissionsSchema, ToolInfoSchema, type ModuleDescriptor } from "./descriptor.ts";
import { extractModuleMeta, MetaSyntaxError, schemasFromExport } from "./module-meta.ts";
import { ToolError } from "../mcp/tool-result.ts";

/** What a module declares about itself. "deno" is the registry's historical name for module code. */
export const ModuleMetaSchema = v.object({
  type: v.optional(v.picklist(["deno", "module"])),
  tools: v.pipe(v.array(ToolInfoSchema), v.minLength(1, "at least one tool")),
  routing: v.optional(v.picklist(["local", "cloud"])),
  permissions: v.optional(ModulePermissionsSchema),
  env_required: v.optional(v.array(EnvName), []),
  description: v.optional(v.string()),
});

export interface ModuleOrigin {
  registryUrl: string;
  fqdn: string;
}

/** A document that came back but cannot be used; the message names registry, fqdn and field. */
export class RegistryDocumentError extends ToolError {
  override name = "RegistryDocumentError";
}

const where = (o: ModuleOrigin) => `'${o.fqdn}' from registry ${o.registryUrl}`;

export function issuePath(issue: v.BaseIssue<unknown>): string {
  return v.getDotPath(issue) ?? "(document)";
}

let transpiler: InstanceType<typeof Bun.Transpiler> | undefined;
function getTranspiler(loader: "ts" | "js") {
  // One instance per loader kind; creating a transpiler costs more than using it.
  if (loader === "js") return new Bun.Transpiler({ loader: "js", target: "browser" });
  return (transpiler ??= new Bun.Transpiler({ loader: "ts", target: "browser" }));
}

export function compileModule(source: string, origin: ModuleOrigin, loader: "ts" | "js" = "ts"): ModuleDescriptor {
  const t = getTranspiler(loader);
  let scan: { exports: string[]; imports: { kind: string; path: string }[] };
  let js: string;
  try {
    scan = t.scan(source);
    js = t.transformSync(source);
  } catch (e) {
    throw new RegistryDocumentError(`module ${where(origin)} does not compile: ${(e as Error).message}`);
  }
  const imp = scan.imports[0];
  if (imp) {
    throw new RegistryDocumentError(
      `modules must be self-contained: found ${imp.kind === "require-call" ? "require" : "import"} of '${imp.path}' in ${origin.fqdn} (registry ${origin.registryUrl}). Inline what it needs, or publish it as a stdio MCP server instead.`,
    );
  }

  let raw: unknown;
  try {
    raw = extractModuleMeta(source, js);
  } catch (e) {
    if (e instanceof MetaSyntaxError) throw new RegistryDocumentError(`module ${where(origin)}: ${e.message}`);
    throw e;
  }
  if (raw === undefined) {
    throw new RegistryDocumentError(
      `module ${where(origin)} declares no metadata: add \`export const __meta__ = { type: "deno", tools: [{ name, description, inputSchema }] }\` or a leading \`// __meta__: {json}\` comment`,
    );
  }
  const parsed = v.safeParse(ModuleMetaSchema, seedTools(raw, js, origin));
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new RegistryDocumentError(`module ${where(origin)}: malformed __meta__ at '${issuePath(issue)}': ${issue.message}`);
  }
  const meta = parsed.output;
  const exported = new Set(scan.exports);
  for (const tool of meta.tools) {
    if (!exported.has(tool.name)) {
      throw new RegistryDocumentError(
        `module ${where(origin)}: __meta__ declares tool '${tool.name}' but the module exports no function '${tool.name}' (exports: ${[...exported].join(", ") || "none"})`,
      );
    }
  }
  return {
    type: "module",
    code: js,
    tools: meta.tools,
    routing: meta.routing,
    permissions: meta.permissions,
    env_required: meta.env_required,
    description: meta.description,
    source: origin.registryUrl,
  };
}

/**
 * The seed's form of `tools`: strings in colon form ("greet:hello", the exported function `hello`),
 * turned into tool infos before validation, with schemas from an exported `schemas` object if the
 * module has one, else any object.
 */
function seedTools(raw: unknown, js: string, origin: ModuleOrigin): unknown {
  const tools = (raw as { tools?: unknown })?.tools;
  if (!Array.isArray(tools) || !tools.some((t) => typeof t === "string")) return raw;
  let schemas: Record<string, unknown> = {};
  try {
    const found = schemasFromExport(js);
    if (found && typeof found === "object" && !Array.isArray(found)) schemas = found as Record<string, unknown>;
  } catch (e) {
    if (e instanceof MetaSyntaxError) throw new RegistryDocumentError(`module ${where(origin)}: its \`schemas\` export ${e.message.replace(/^__meta__ /, "")}`);
    throw e;
  }
  return {
    ...(raw as object),
    tools: tools.map((t) => {
      if (typeof t !== "string") return t;
      const name = t.slice(t.lastIndexOf(":") + 1);
      const schema = schemas[name] ?? schemas[t];
      return { name, inputSchema: schema && typeof schema === "object" && !Array.isArray(schema) ? schema : { type: "object" } };
    }),
  };
}
