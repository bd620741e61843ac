// One way to declare a tool pml serves in-process (its own tools and the standard library): a
// name, a description, the arguments as valibot schemas, and a handler that receives them typed.
// The JSON Schema clients see (tools/list, `discover`) is generated from the same schema the
// arguments are checked against, and they are checked once, here, before the handler runs.
import * as v from "valibot";
import { ToolError } from "../../mcp/tool-result.ts";
import type { ToolInfo } from "../../mcp/types.ts";
import { describeIssues } from "./arguments-message.ts";
import { inputSchemaOf } from "./schema.ts";

interface ToolSpec<E extends v.ObjectEntries, C, R> {
  name: string;
  title?: string;
  description: string;
  annotations?: ToolInfo["annotations"];
  /** Each argument's schema; a key not named here is refused (with the one it probably meant). */
  args: E;
  run(args: v.InferOutput<v.StrictObjectSchema<E, undefined>>, ctx: C): Promise<R>;
}

/** Arguments that do not fit the tool's schema: nothing ran. */
class ArgumentsError extends ToolError {
  override name = "ArgumentsError";
}

/** A declared tool: its listing, and its handler behind the arguments check. */
export class Tool<C, R> {
  readonly name: string;
  private readonly schema: v.StrictObjectSchema<v.ObjectEntries, undefined>;
  private listed?: ToolInfo;

  constructor(private readonly spec: ToolSpec<v.ObjectEntries, C, R>) {
    this.name = spec.name;
    this.schema = v.strictObject(spec.args);
  }

  /** What tools/list and `discover` show (its schema generated on first use). */
  get info(): ToolInfo {
    if (this.listed) return this.listed;
    const { name, title, description, annotations } = this.spec;
    this.listed = { name, ...(title ? { title } : {}), description, inputSchema: inputSchemaOf(this.schema), ...(annotations ? { annotations } : {}) };
    return this.listed;
  }

  /**
   * Checks the arguments, then runs the handler with them. `id` is how the caller named the tool
   * (`dns:lookup`, `execute`): the message says where to see its schema.
   */
  call(args: Record<string, unknown>, ctx: C, id: string): Promise<R> {
    const checked = this.check(args, id);
    if ("error" in checked) return Promise.reject(new ArgumentsError(checked.error));
    return this.spec.run(checked.args, ctx);
  }

  /** The arguments as the handler gets them, or what is wrong with them: also for arguments a
   * handler takes up again later (a continuation's), which go through the same schema. */
  check(args: Record<string, unknown>, id: string): { args: Record<string, unknown> } | { error: string } {
    const parsed = v.safeParse(this.schema, args, { abortEarly: false });
    return parsed.success ? { args: parsed.output } : { error: argumentsMessage(id, describeIssues(this.schema, parsed.issues)) };
  }
}

export function defineTool<E extends v.ObjectEntries, C, R>(spec: ToolSpec<E, C, R>): Tool<C, R> {
  return new Tool(spec as unknown as ToolSpec<v.ObjectEntries, C, R>);
}

function argumentsMessage(id: string, problems: string): string {
  const ns = id.includes(":") ? id.split(":")[0] : undefined;
  const schema = ns ? `see the tool's input schema with \`discover\` {"namespace": "${ns}"}` : "see the tool's input schema in tools/list";
  return `Invalid arguments for ${id}: ${problems}. Nothing was run; fix the arguments (${schema}) and call again.`;
}
