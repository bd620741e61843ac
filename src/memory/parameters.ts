// A capability's parameters, as a function's: what a first run's arguments make of them (each one
// required, its value shown as an example, never applied), and the read-time migration of records
// saved before that: first-run values kept as schema defaults and filled in silently, and numbers
// typed integer.

type Schema = Record<string, unknown>;
type Property = Record<string, unknown>;

/** The schema a run without declared parameters gets: its arguments required, their values as examples. */
export function inferParameters(args: Record<string, unknown>): Schema {
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) properties[k] = { type: jsonType(v), examples: [v] };
  return { type: "object", properties, required: Object.keys(args) };
}

/** A saved schema read as pml infers one today (defaultsAsExamples, then numbersWidened). */
export function readSavedParameters(schema: Schema, firstRun: Record<string, unknown> | null | undefined): Schema {
  return numbersWidened(defaultsAsExamples(schema, firstRun));
}

/**
 * A schema saved before issue 23 with the first run's arguments as defaults (each property exactly
 * `{type, default}` with the first run's value): those defaults become required parameters with the
 * value as an example. A property the agent described (anything besides type and default), or whose
 * default is not the first run's value, is declared and kept.
 */
function defaultsAsExamples(schema: Schema, firstRun: Record<string, unknown> | null | undefined): Schema {
  const props = schema?.properties as Record<string, Property> | undefined;
  if (!props || typeof props !== "object" || !firstRun || typeof firstRun !== "object") return schema;
  const properties: Record<string, unknown> = { ...props };
  const moved: string[] = [];
  for (const [k, p] of Object.entries(props)) {
    if (!p || typeof p !== "object" || !("default" in p) || !(k in firstRun)) continue;
    if (Object.keys(p).some((key) => key !== "type" && key !== "default")) continue;
    if (JSON.stringify(p.default) !== JSON.stringify(firstRun[k])) continue;
    const { default: value, ...rest } = p;
    properties[k] = { ...rest, examples: [value] };
    moved.push(k);
  }
  if (!moved.length) return schema;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  return { ...schema, properties, required: [...new Set([...required, ...moved])] };
}

/** Each property inferred from one whole number as an integer (exactly `{type: "integer", examples:
 * [n]}`, as pml once inferred it) typed `number`, as inferParameters does now. */
function numbersWidened(schema: Schema): Schema {
  const props = schema?.properties as Record<string, Property> | undefined;
  if (!props || typeof props !== "object") return schema;
  const inferred = (p: Property) =>
    p && typeof p === "object" && p.type === "integer" && Object.keys(p).length === 2 && Array.isArray(p.examples) && p.examples.length === 1 && Number.isInteger(p.examples[0]);
  if (!Object.values(props).some(inferred)) return schema;
  return { ...schema, properties: Object.fromEntries(Object.entries(props).map(([k, p]) => [k, inferred(p) ? { ...p, type: "number" } : p])) };
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  // One example cannot say 5 was not also 4.5 (an interest rate, a number of hours): "integer"
  // would refuse the next call's 4.5, and an agent reading the schema would not try it.
  if (typeof v === "number") return "number";
  return typeof v === "object" ? "object" : typeof v === "string" || typeof v === "boolean" ? typeof v : "string";
}
