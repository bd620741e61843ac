// A capability's parameters, as a function's: what a first run's arguments make of them (each one
// required, its value shown as an example, never applied), and the read-time migration of records
// saved before that, whose first-run values were kept as schema defaults and filled in silently.

type Schema = Record<string, unknown>;
type Property = Record<string, unknown>;

/** The schema a run without declared parameters gets: its arguments required, their values as examples. */
export function inferParameters(args: Record<string, unknown>): Schema {
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) properties[k] = { type: jsonType(v), examples: [v] };
  return { type: "object", properties, required: Object.keys(args) };
}

/**
 * A schema saved before issue 23 with the first run's arguments as defaults (each property exactly
 * `{type, default}` with the first run's value): those defaults become required parameters with the
 * value as an example. A property the agent described (anything besides type and default), or whose
 * default is not the first run's value, is declared and kept.
 */
export function firstRunDefaultsAsExamples(schema: Schema, firstRun: Record<string, unknown> | null | undefined): Schema {
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

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  // One example cannot say 5 was not also 4.5 (an interest rate, a number of hours): "integer"
  // would refuse the next call's 4.5, and an agent reading the schema would not try it.
  if (typeof v === "number") return "number";
  return typeof v === "object" ? "object" : typeof v === "string" || typeof v === "boolean" ? typeof v : "string";
}
