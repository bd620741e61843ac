// The pieces pml's own tools build their arguments from (valibot), and the JSON Schema clients see
// for them, generated from the same valibot schema the arguments are checked against.
import * as v from "valibot";
import { toJsonSchema, type ConversionConfig } from "@valibot/to-json-schema";

/** Any JSON object (not an array, not null): what a tool passes on without looking inside. */
type PlainObject = Record<string, unknown>;

const plainObjects = new WeakSet<object>();

function isPlainObject(x: unknown): x is PlainObject {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Any object; JSON Schema `{"type": "object"}`. */
export function plainObject(description?: string) {
  const schema = v.custom<PlainObject>(isPlainObject, "must be object");
  plainObjects.add(schema);
  return description === undefined ? schema : v.pipe(schema, v.description(description));
}

export function text(description: string) {
  return v.pipe(v.string(), v.description(description));
}

/** Words kept with a capability (an intent, a description): bounded, so a pasted text is refused
 * with the limit instead of being stored, indexed and read at every start of the index. */
export function words(description: string, max: number) {
  return v.pipe(v.string(), v.maxLength(max, `at most ${max} characters: a line or two, not a pasted text`), v.description(description));
}

/** A string that must say something; surrounding blanks are dropped. */
export function nonBlank(description: string) {
  return v.pipe(v.string(), v.trim(), v.nonEmpty(), v.description(description));
}

/** A string that is not blank, kept as given (JSON Schema: a string). */
export function filled() {
  return v.pipe(
    v.string(),
    v.check((s) => s.trim() !== "", "must not be blank"),
  );
}

/** An integer from `min` (to `max`). */
export function integer(min: number, max?: number, description?: string) {
  const bounded = max === undefined ? v.pipe(v.number(), v.integer(), v.minValue(min)) : v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
  return description === undefined ? bounded : v.pipe(bounded, v.description(description));
}

const conversion: ConversionConfig = {
  errorMode: "throw",
  overrideSchema: ({ valibotSchema }) => (plainObjects.has(valibotSchema) ? { type: "object" } : undefined),
  // Checks JSON Schema cannot say (a trimmed string, a date that parses) stay with the handler's
  // schema; the client sees the shape.
  overrideAction: ({ valibotAction, jsonSchema }) => (valibotAction.type === "trim" || valibotAction.type === "check" ? jsonSchema : undefined),
};

/** The JSON Schema of a tool's arguments, as tools/list and `discover` show it. */
export function inputSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const json = toJsonSchema(schema, conversion) as Record<string, unknown>;
  delete json.$schema;
  return dropEmptyRequired(json) as Record<string, unknown>;
}

function dropEmptyRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropEmptyRequired);
  if (!isPlainObject(node)) return node;
  const out: PlainObject = {};
  for (const [k, val] of Object.entries(node)) if (!(k === "required" && Array.isArray(val) && val.length === 0)) out[k] = dropEmptyRequired(val);
  return out;
}
