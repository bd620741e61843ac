// Keys of a .pml.json that its schema does not know (`pml doctor`, and a warning when pml reads it).
import schemaDocument from "../../schema/pml.schema.json" with { type: "json" };
import { quoted } from "../visible-text.ts";
import { closest } from "./did-you-mean.ts";

/**
 * Keys the schema does not know, with the closest known one: a typo such as "permisions" would
 * otherwise leave every tool asking, with no word why. Sections keyed by the user's own names
 * (private_mcps, env_grants) are not checked inside.
 */
export function unknownConfigKeys(raw: Record<string, unknown>): string[] {
  const out: string[] = [];
  const check = (obj: unknown, props: Record<string, any> | undefined, where: string) => {
    if (!props || typeof obj !== "object" || obj === null || Array.isArray(obj)) return;
    for (const key of Object.keys(obj)) {
      if (key in props) continue;
      const near = closest(key, Object.keys(props));
      out.push(`${quoted(where + key)} is not a .pml.json key${near ? ` (did you mean "${where}${near}"?)` : ""}; it is ignored`);
    }
  };
  const top = (schemaDocument as any).properties as Record<string, any>;
  check(raw, top, "");
  for (const [name, section] of Object.entries(top)) {
    if (section?.properties && name in raw) check(raw[name], section.properties, `${name}.`);
  }
  return out;
}
