// The arguments of curate_capabilities and learn:curate (one tool under two names).
import * as v from "valibot";
import { text } from "./schema.ts";

export const CURATE_DESCRIPTION =
  "Proposes names for unnamed_… capabilities (from the tools they use, their intent and code; refined by a language model when one is available) " +
  "and applies them: mode suggest -> [{id, currentName, suggestedName, confidence, reasoning}]; auto -> applies only the names a language model confirmed in this call " +
  "(the client's sampling, else the .pml.json sampling API with the user's key; prompt and answer go to the audit log): without one it applies nothing and says why in note; " +
  "apply -> takes names: [{id, name}].";

export const curateArgs = {
  mode: v.optional(v.pipe(v.picklist(["suggest", "auto", "apply"]), v.description("default suggest"))),
  filter: v.optional(
    v.strictObject({
      unnamed_only: v.optional(v.pipe(v.boolean(), v.description("default true"))),
      namespace: v.optional(text("only this namespace")),
      min_usage: v.optional(v.pipe(v.number(), v.minValue(0))),
    }),
  ),
  // An item without its id or name is reported by apply, which applies the others.
  names: v.optional(
    v.pipe(v.array(v.looseObject({ id: v.optional(text("capability id from suggest")), name: v.optional(text("ns:action_target")) })), v.description("for mode apply")),
  ),
};

export type CurateArgs = v.InferOutput<v.ObjectSchema<typeof curateArgs, undefined>>;
