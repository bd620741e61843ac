// Tool arguments checked against the tool's input schema before anything runs, with a message
// naming the wrong field. Ajv compiles each schema once (cached by the schema object); it is
// loaded lazily, and warmed in the background once the host is up, so `initialize` never waits.
import type { ErrorObject, ValidateFunction } from "ajv";
import { log } from "../../log.ts";
import { unknownKeyHint } from "./did-you-mean.ts";

type Compile = (schema: Record<string, unknown>) => ValidateFunction;

let compiler: Promise<Compile> | undefined;
let compile: Compile | undefined;
const compiled = new WeakMap<object, ValidateFunction | null>();

/** Starts loading the validator; calls made before it is ready wait for it. */
export function warmValidator(): Promise<Compile> {
  compiler ??= (async () => {
    const [{ Ajv2020 }, { Ajv }] = await Promise.all([import("ajv/dist/2020.js"), import("ajv")]);
    // Tool schemas come from servers we do not control: unknown keywords and formats are
    // ignored, not fatal (strict: false), and a schema that still does not compile is skipped.
    const modern = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
    const draft7 = new Ajv({ strict: false, allErrors: false, validateFormats: false });
    compile = (schema) => {
      const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
      return (/draft-0[4-7]/.test(dialect) ? draft7 : modern).compile(schema);
    };
    return compile;
  })();
  return compiler;
}

/** Validators of schemas read anew on each call (capabilities' parameters), by their text. */
const compiledByText = new Map<string, ValidateFunction | null>();
const MAX_BY_TEXT = 500;

/** The validator is not loaded yet: `argumentsProblemNow` cannot tell (see `argumentsProblem`). */
export const NOT_LOADED = Symbol("validator not loaded");

/**
 * Undefined when the arguments fit the schema (or the schema cannot be used); else the message.
 * `byText`: the schema object is new on every call (parsed from storage), so its validator is
 * kept by the schema's text instead of by the object.
 */
export async function argumentsProblem(toolId: string, schema: Record<string, unknown> | undefined, args: Record<string, unknown>, byText = false): Promise<string | undefined> {
  if (!compile) await warmValidator();
  return argumentsProblemNow(toolId, schema, args, byText) as string | undefined;
}

/** The same check without waiting (a proxied call's hot path); NOT_LOADED until the validator is. */
export function argumentsProblemNow(
  toolId: string,
  schema: Record<string, unknown> | undefined,
  args: Record<string, unknown>,
  byText = false,
): string | undefined | typeof NOT_LOADED {
  if (!schema || typeof schema !== "object") return undefined;
  if (!compile) return NOT_LOADED;
  const text = byText ? JSON.stringify(schema) : "";
  let validate = byText ? compiledByText.get(text) : compiled.get(schema);
  if (validate === undefined) {
    try {
      validate = compile(schema);
    } catch (e) {
      log.debug(`${toolId}: its input schema does not compile (${(e as Error).message}); arguments go unchecked`);
      validate = null;
    }
    if (!byText) compiled.set(schema, validate);
    else {
      if (compiledByText.size >= MAX_BY_TEXT) compiledByText.delete(compiledByText.keys().next().value!);
      compiledByText.set(text, validate);
    }
  }
  if (!validate || validate(args)) return undefined;
  return `Invalid arguments for ${toolId}: ${describe(validate.errors?.[0], schema)}. Nothing was run; fix the arguments (see the tool's input schema with \`discover\` {"namespace": "${toolId.split(":")[0]}"}) and call again.`;
}

function describe(e: ErrorObject | undefined, schema: Record<string, unknown>): string {
  if (!e) return "they do not match the tool's input schema";
  const at = fieldName(e.instancePath);
  const p = e.params as Record<string, unknown>;
  if (e.keyword === "required") return `"${join(at, String(p.missingProperty))}" is required`;
  if (e.keyword === "additionalProperties") {
    const key = String(p.additionalProperty);
    return `"${join(at, key)}" is not an accepted argument${unknownKeyHint(key, propertiesAt(schema, e.schemaPath))}`;
  }
  if (e.keyword === "enum") return `"${at || "arguments"}" must be one of ${JSON.stringify(p.allowedValues)}`;
  return `"${at || "arguments"}" ${e.message ?? "is invalid"}`;
}

/** The property names beside an additionalProperties error ("#/properties/a/additionalProperties"). */
function propertiesAt(schema: Record<string, unknown>, schemaPath: string): string[] {
  let node: unknown = schema;
  for (const part of schemaPath.split("/").slice(1, -1)) node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  const properties = (node as { properties?: unknown } | undefined)?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

/** "/entities/0/name" -> "entities[0].name" */
function fieldName(pointer: string): string {
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

function join(at: string, name: string): string {
  return at ? `${at}.${name}` : name;
}
