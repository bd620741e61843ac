// `continue_workflow`: how `call` and `execute` go on after an approval request (tool-result flow).
import * as v from "valibot";

export const continueWorkflow = v.pipe(
  v.object({
    workflow_id: v.string(),
    approved: v.boolean(),
    always: v.optional(
      v.pipe(v.boolean(), v.description("true when the user chose Always (adds the tool to .pml.json permissions.allow and the variables it was given to env_grants)")),
    ),
  }),
  v.description("Only to continue after an approval request: the workflow_id it gave and the user's answer."),
);
