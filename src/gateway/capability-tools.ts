// The in-process namespaces of procedural memory: `cap` (every learned capability, called by name:
// `cap__fs__read_json`, `call {tool: "cap:fs:read_json"}`, `mcp.cap.fs__read_json()` in code) and
// `dns` (their names: `dns:rename`). Both are reached through the invoker, so permissions,
// approvals and the tool_usage log apply to them as to any tool.
import { memorySettings } from "../memory/memory.ts";
import { capWireName, type CapName } from "../memory/names.ts";
import { NameTakenError, NotFoundError, type Capability } from "../memory/store.ts";
import type { InProcessNamespace } from "./backends.ts";
import { runProgram } from "./execute.ts";
import type { MetaDeps } from "./meta-tools.ts";
import type { WireTool } from "./server.ts";
import { errorResult, textResult, type CallToolResult, type ToolInfo } from "./types.ts";

const RENAME: ToolInfo = {
  name: "rename",
  description:
    "Renames a learned capability (procedural memory): {name: \"fs:read_json\", newName: \"json:read_file\"}. The old name keeps working as a deprecated alias.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "the current (or an old) name, namespace:action_target" },
      newName: { type: "string", description: "the new name, namespace:action_target" },
    },
    required: ["name", "newName"],
  },
};

export function memoryNamespaces(deps: MetaDeps): Record<string, InProcessNamespace> {
  const settings = async () => memorySettings((await deps.project.get()).config, deps.workspace.root);
  return {
    cap: {
      description: "code that worked, kept as a named capability",
      async run(session, action, args, call) {
        const found = await deps.memory.resolve(await settings(), action);
        if (!found) return errorResult(`Capability not found: ${action}. Use discover {query} to find capabilities and tools by what they do.`);
        const cap = found.capability;
        const merged = { ...cap.default_args, ...args };
        const run = await runProgram(deps, session, call, { code: cap.code, args: merged, intent: cap.intent, capabilityId: cap.id });
        const deprecation = found.alias ? `${found.alias} is deprecated: it was renamed to ${cap.display_name}; call ${cap.display_name} instead.` : undefined;
        if (run.kind === "result") {
          if (!run.result.approval_required) await deps.memory.recordRun(cap.id, false, run.ms).catch(() => {});
          return deprecation ? { ...run.result, content: [...run.result.content, { type: "text", text: deprecation }] } : run.result;
        }
        await deps.memory.recordRun(cap.id, true, run.ms).catch(() => {});
        const out: Record<string, unknown> = { result: run.value ?? null, tools_used: run.toolsUsed, capabilityName: cap.display_name };
        if (deprecation) out.deprecation = deprecation;
        return textResult(JSON.stringify(out, null, 2), { structuredContent: out });
      },
    },
    dns: {
      description: "names of learned capabilities",
      tools: [RENAME],
      async run(_session, action, args) {
        if (action !== "rename") return errorResult(`"dns" has no tool "${action}". Its tools: rename.`);
        if (typeof args.name !== "string" || typeof args.newName !== "string")
          return errorResult('dns:rename needs {name: "<current name>", newName: "<namespace:action_target>"}.');
        try {
          const done = await deps.memory.rename(await settings(), args.name, args.newName);
          const out = {
            renamed: done.old,
            to: done.capability.display_name,
            fqdn: done.capability.fqdn,
            tool: capWireName(done.capability),
            note: `${done.old} keeps working as a deprecated alias of ${done.capability.display_name}.`,
            ...(done.warning ? { warnings: [done.warning] } : {}),
          };
          return textResult(JSON.stringify(out, null, 2), { structuredContent: out });
        } catch (e) {
          if (e instanceof NameTakenError || e instanceof NotFoundError) return errorResult(e.message);
          return errorResult(`dns:rename failed: ${(e as Error).message}`);
        }
      },
    },
  };
}

/** Named capabilities of the project as tools/list entries. */
export async function capabilityTools(deps: MetaDeps): Promise<WireTool[]> {
  const caps = await deps.memory.listNamed(memorySettings((await deps.project.get()).config, deps.workspace.root));
  return caps.map(capabilityTool);
}

export function capabilityTool(cap: Capability): WireTool {
  const what = (cap.description || cap.intent || `Learned capability ${cap.display_name}`).trim();
  const uses = cap.tools_used.length ? ` Uses ${cap.tools_used.join(", ")}.` : "";
  return {
    name: capWireName(cap as CapName),
    title: `capability ${cap.display_name}`,
    description: `${what}${/[.!?]$/.test(what) ? "" : "."}${uses}`,
    inputSchema: cap.parameters_schema,
  };
}
