// The built-in local MCPs (filesystem, shell): module code compiled into pml, run in the sandbox,
// scoped to the workspace. Which of them needs approval is the gateway's permissions' business.
import type { ModuleDescriptor } from "../../registry/descriptor.ts";
import { FILESYSTEM_CODE } from "./filesystem-code.ts";
import { SHELL_CODE } from "./shell-code.ts";

const path = (description: string) => ({ type: "string", minLength: 1, description });

const filesystem: ModuleDescriptor = {
  type: "module",
  code: FILESYSTEM_CODE,
  routing: "local",
  permissions: { write: true, net: [] },
  env_required: [],
  source: "builtin",
  description: "Read, write, edit and search files in the project (the workspace); nothing outside it.",
  tools: [
    {
      name: "read_file",
      description: "Read a text file in the workspace. head/tail: only the first/last N lines.",
      inputSchema: {
        type: "object",
        properties: { path: path("File path, relative to the workspace"), head: { type: "integer", minimum: 0 }, tail: { type: "integer", minimum: 0 } },
        required: ["path"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    },
    {
      name: "write_file",
      description: "Create or overwrite a file in the workspace (atomically; parent directories are created).",
      inputSchema: {
        type: "object",
        properties: { path: path("File path, relative to the workspace"), content: { type: "string" } },
        required: ["path", "content"],
        additionalProperties: false,
      },
      annotations: { destructiveHint: true },
    },
    {
      name: "edit_file",
      description: "Replace exact text in a file; each oldText must occur exactly once. Returns a diff. dryRun: show the diff only.",
      inputSchema: {
        type: "object",
        properties: {
          path: path("File path, relative to the workspace"),
          edits: {
            type: "array",
            minItems: 1,
            items: {
              type: "object",
              properties: { oldText: { type: "string", minLength: 1 }, newText: { type: "string" } },
              required: ["oldText", "newText"],
              additionalProperties: false,
            },
          },
          dryRun: { type: "boolean", default: false },
        },
        required: ["path", "edits"],
        additionalProperties: false,
      },
      annotations: { destructiveHint: true },
    },
    {
      name: "list_directory",
      description: "List a directory in the workspace ([DIR], [FILE], [LINK] per entry).",
      inputSchema: { type: "object", properties: { path: { type: "string", default: "." } }, additionalProperties: false },
      annotations: { readOnlyHint: true },
    },
    {
      name: "search_files",
      description: "Find files and directories by glob pattern (e.g. **/*.ts), relative to path (default: the workspace).",
      inputSchema: {
        type: "object",
        properties: { pattern: { type: "string", minLength: 1 }, path: { type: "string", default: "." } },
        required: ["pattern"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
    },
    {
      name: "get_file_info",
      description: "Type, size, times and permissions of a file or directory in the workspace.",
      inputSchema: { type: "object", properties: { path: path("Path, relative to the workspace") }, required: ["path"], additionalProperties: false },
      annotations: { readOnlyHint: true },
    },
    {
      name: "create_directory",
      description: "Create a directory (and its parents) in the workspace.",
      inputSchema: { type: "object", properties: { path: path("Directory path, relative to the workspace") }, required: ["path"], additionalProperties: false },
    },
    {
      name: "move_file",
      description: "Move or rename a file or directory within the workspace; the destination must not exist.",
      inputSchema: {
        type: "object",
        properties: { source: path("Existing path"), destination: path("New path") },
        required: ["source", "destination"],
        additionalProperties: false,
      },
      annotations: { destructiveHint: true },
    },
  ],
};

const shell: ModuleDescriptor = {
  type: "module",
  code: SHELL_CODE,
  routing: "local",
  permissions: { write: false, net: [] },
  env_required: [],
  source: "builtin",
  description: "Run shell commands in the project directory (needs approval unless allowed in .pml.json).",
  tools: [
    {
      name: "exec",
      description:
        "Run a shell command (sh -c; cmd /c on Windows) with cwd = the workspace (or cwd inside it). " +
        "Returns {exit_code, stdout, stderr, truncated, timed_out, confined}. Output is capped at 256 KB per stream. " +
        'Where the OS sandbox works (confined: "bubblewrap" or "seatbelt") the command can write only the workspace ' +
        "(not .pml.json, .mcp.json, .git/, .claude/, .pml/; .env* unreadable), cannot read the home directory, gets a private " +
        "empty /tmp, and has no network unless .pml.json sets sandbox.shell_net.",
      inputSchema: {
        type: "object",
        properties: {
          command: { type: "string", minLength: 1 },
          cwd: { type: "string", description: "Directory relative to the workspace (default: the workspace)" },
          timeout_ms: { type: "integer", minimum: 1, maximum: 600000, default: 30000 },
        },
        required: ["command"],
        additionalProperties: false,
      },
      annotations: { destructiveHint: true, openWorldHint: true },
    },
  ],
};

export function builtinModules(): Record<string, ModuleDescriptor> {
  return { filesystem: structuredClone(filesystem), shell: structuredClone(shell) };
}

/** Only pml's own filesystem module writes without a grant in .pml.json (its tools go through permissions). */
export function isBuiltinFilesystem(d: ModuleDescriptor): boolean {
  return d.code === FILESYSTEM_CODE;
}

/** Only pml's own shell module gets the exec bridge, whatever a registry module calls itself. */
export function isBuiltinShell(d: ModuleDescriptor): boolean {
  return d.code === SHELL_CODE;
}
