// What is wrong with a tool's arguments, in words that name the field and say what it must be:
// valibot's issues as the messages validate-args.ts gives for other tools' schemas ("x" is
// required, "x" must be integer, ...), and a misspelled key with the key it probably meant.
import * as v from "valibot";
import { unknownKeyHint } from "../dispatch/did-you-mean.ts";

type Issue = v.BaseIssue<unknown>;
type AnySchema = v.BaseSchema<unknown, unknown, Issue> & Record<string, unknown>;

const AT_MOST = 3;

/** The problems with arguments, most telling first: a misspelled key explains a missing one. */
export function describeIssues(schema: v.GenericSchema, issues: readonly Issue[]): string {
  const sorted = [...issues].sort((a, b) => Number(isUnknownKey(b)) - Number(isUnknownKey(a)));
  return sorted
    .slice(0, AT_MOST)
    .map((i) => describe(schema as AnySchema, i))
    .join("; ");
}

function describe(root: AnySchema, issue: Issue): string {
  const keys = (issue.path ?? []).map((p) => p.key as string | number);
  const field = fieldName(keys);
  const at = `"${field || "arguments"}"`;
  if (isUnknownKey(issue)) return `${at} is not an accepted argument${unknownKeyHint(String(keys.at(-1)), entryNames(schemaAt(root, keys.slice(0, -1)))) || " (it takes none)"}`;
  const last = issue.path?.at(-1);
  if (last && last.type === "object" && !Object.hasOwn(last.input as object, last.key as string)) {
    const about = descriptionOf(schemaAt(root, keys));
    return `${at} is required${about ? ` (${about})` : ""}`;
  }
  return `${at} ${mustBe(issue, schemaAt(root, keys))}`;
}

function mustBe(issue: Issue, schema: AnySchema | undefined): string {
  const requirement = (issue as { requirement?: unknown }).requirement;
  switch (issue.type) {
    case "picklist":
      return `must be one of ${JSON.stringify(schema?.options ?? issue.expected)}`;
    case "array":
      return "must be array";
    case "object":
    case "strict_object":
    case "loose_object":
      return "must be object";
    case "integer":
      return "must be integer";
    case "min_value":
      return `must be >= ${requirement}`;
    case "max_value":
      return `must be <= ${requirement}`;
    case "non_empty":
      return "must not be empty";
    case "number":
      return isInteger(schema) ? "must be integer" : "must be number";
    case "string":
    case "boolean":
      return `must be ${issue.type}`;
    default:
      // custom and check: their message is written as what the value must be
      return issue.message;
  }
}

function isInteger(s: AnySchema | undefined): boolean {
  const pipe = s?.pipe as Array<{ type: string; pipe?: unknown }> | undefined;
  return !!pipe?.some((a) => a.type === "integer" || (a !== s && a.pipe !== undefined && isInteger(a as AnySchema)));
}

function isUnknownKey(issue: Issue): boolean {
  return issue.expected === "never" && issue.path?.at(-1)?.origin === "key";
}

/** The schema of the value at `keys`, looking through optional and nullable wrappers. */
function schemaAt(root: AnySchema, keys: Array<string | number>): AnySchema | undefined {
  let s: AnySchema | undefined = unwrap(root);
  for (const k of keys) {
    if (!s) return undefined;
    const entries = s.entries as Record<string, AnySchema> | undefined;
    s = unwrap(typeof k === "number" ? (s.item as AnySchema | undefined) : entries?.[k]);
  }
  return s;
}

function unwrap(s: AnySchema | undefined): AnySchema | undefined {
  while (s && (s.type === "optional" || s.type === "nullable" || s.type === "nullish")) s = s.wrapped as AnySchema;
  return s;
}

function entryNames(s: AnySchema | undefined): string[] {
  return s?.entries ? Object.keys(s.entries as object) : [];
}

function descriptionOf(s: AnySchema | undefined): string | undefined {
  return s && v.getDescription(s as v.GenericSchema);
}

/** ["entities", 0, "name"] -> "entities[0].name" */
function fieldName(keys: Array<string | number>): string {
  let out = "";
  for (const k of keys) out += typeof k === "number" ? `[${k}]` : out ? `.${k}` : k;
  return out;
}
