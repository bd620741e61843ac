// Steps 1 to 5 of `pml try`: the tour plays an agent doing one small task (read the project's
// JSON settings) the first time, by finding and combining tools, then a second time, when pml
// remembers the code that worked. Each step checks what pml answered and throws StepFailed,
// saying what it expected, when pml did something else.
import { parseToolName, wireName } from "../mcp/tool-names.ts";
import type { Meter, TourClient } from "./client.ts";
import { formatBytes, type Narrator } from "./narrate.ts";

export class StepFailed extends Error {}

export interface TourContext {
  client: TourClient;
  n: Narrator;
  /** Counts of the first time the task is done (steps 1 to 3). */
  first: Meter;
  /** The settings the task reads, as the tool returned them the first time. */
  settings?: unknown;
}

/** The file the task reads, written into the throwaway workspace. */
export const SETTINGS_FILE = "settings.json";
export const SETTINGS = { theme: "dark", fontSize: 14, autosave: true };

const TOOL = "filesystem:read_file";
const QUERY_FIRST = "read a settings file from the project";
const QUERY_AGAIN = "load the configuration from a json file";
const CAPABILITY = "fs:read_settings";
const RENAMED = "fs:load_settings";
const CODE = [
  "const text = await mcp.filesystem.read_file({ path: args.path });",
  "const info = await mcp.filesystem.get_file_info({ path: args.path });",
  "return { settings: JSON.parse(text), bytes: info.size };",
].join("\n");

function check(ok: unknown, why: string): asserts ok {
  if (!ok) throw new StepFailed(why);
}

/** A tools/call result as the agent reads it: its JSON (structuredContent, or the text parsed), the text, isError. */
export function readResult(result: any): { json: any; text: string; isError: boolean } {
  const text = Array.isArray(result?.content)
    ? result.content
        .filter((c: any) => c?.type === "text")
        .map((c: any) => String(c.text))
        .join("\n")
    : "";
  let json = result?.structuredContent;
  if (json === undefined) {
    try {
      json = JSON.parse(text);
    } catch {} // a text answer: steps look at the text
  }
  return { json, text, isError: result?.isError === true };
}

async function call(ctx: TourContext, name: string, args: Record<string, unknown>) {
  const r = readResult(await ctx.client.callTool(name, args));
  check(!r.isError, `${name} answered with an error: ${r.text.slice(0, 400)}`);
  return r;
}

/** What a tool name says (as discover's answer reads it): `cap__fs__x` is the capability fs:x. */
function idOfTool(tool: string): { id: string; kind: string } | undefined {
  const t = parseToolName(tool);
  if (!t) return undefined;
  return t.ns === "cap" ? { id: t.action, kind: "capability" } : { id: `${t.ns}:${t.action}`, kind: "tool" };
}

interface Found {
  id: string;
  kind: string;
  tool: string;
  description: string;
}

/** discover's results, whatever their exact shape: each with an id and the wire name to call
 * (`tool` when the answer gives it, else derived from the id; the id and kind, when the answer
 * leaves them out, are what the tool name says). */
export function discovered(json: any, text = ""): Found[] {
  const list = Array.isArray(json?.results) ? json.results : Array.isArray(json) ? json : resultLines(text);
  return list.map((r: any) => {
    const says = typeof r?.tool === "string" && r?.id === undefined ? idOfTool(r.tool) : undefined;
    const id = String(r?.id ?? r?.name ?? says?.id ?? r?.tool ?? "");
    const kind = String(r?.kind ?? says?.kind ?? (id.startsWith("cap:") || id.startsWith("cap__") ? "capability" : "tool"));
    const bare = id.replace(/^cap:/, "");
    const [ns, ...rest] = bare.split(":");
    const derived = kind === "capability" ? wireName("cap", bare.replace(":", "__")) : wireName(ns ?? "", rest.join(":"));
    return { id, kind, tool: typeof r?.tool === "string" ? r.tool : derived, description: String(r?.description ?? "").split("\n")[0]! };
  });
}

/** discover's plain answer, one result per line: `tool(params) — description [match]; more`. */
function resultLines(text: string): Array<{ tool: string; description: string }> {
  const lines = text.split("\n").map((l) => /^(\S+?)(?:\(.*?\))? — (.*?)(?: \[(?:strong|fair)\])?(?:; [a-z_]+: .*)?$/.exec(l));
  return lines.filter((m) => m !== null).map((m) => ({ tool: m[1]!, description: m[2]! }));
}

/** Where `want` is in discover's answer: its rank (0 when the answer is text that names it
 * without a list) and the wire name to call; undefined when the answer does not name it. */
function locate(found: Found[], text: string, ids: string[], wire: string): { rank: number; tool: string } | undefined {
  const i = found.findIndex((f) => ids.includes(f.id) || f.tool === wire);
  if (i >= 0) return { rank: i + 1, tool: found[i]!.tool };
  return ids.some((id) => text.includes(id)) || text.includes(wire) ? { rank: 0, tool: wire } : undefined;
}

const rankText = (rank: number, of: number) => (rank ? `result ${rank} of ${of}` : "in the answer");

function showRanked(ctx: TourContext, found: Found[], text: string, shown = 5): void {
  if (!found.length) return ctx.n.say(`pml answered, offline:\n${text.length > 600 ? `${text.slice(0, 599)}…` : text}`);
  const lines = found
    .slice(0, shown)
    .map((f, i) => `${String(i + 1).padStart(2)}. ${f.id} (${f.kind}) ${f.description.length > 70 ? `${f.description.slice(0, 69)}…` : f.description}`);
  if (found.length > shown) lines.push(`   … and ${found.length - shown} more`);
  ctx.n.say(`pml ranked ${found.length} results, offline, from the tools and capabilities it knows:\n${lines.join("\n")}`);
}

export async function stepDiscover(ctx: TourContext): Promise<string> {
  ctx.n.say(
    `The agent has a task: read the project's settings (${SETTINGS_FILE}). It does not know pml's tools by heart, so it asks \`discover\` in plain words: "${QUERY_FIRST}".`,
  );
  const { json, text } = await call(ctx, "discover", { query: QUERY_FIRST });
  const found = discovered(json, text);
  showRanked(ctx, found, text);
  const hit = locate(found, text, [TOOL], wireName("filesystem", "read_file"));
  check(hit, `discover "${QUERY_FIRST}" did not list ${TOOL} among its ${found.length} results`);
  ctx.n.data({ query: QUERY_FIRST, results: found.map((f) => f.id), picked: TOOL, rank: hit.rank });
  return `${TOOL} is ${rankText(hit.rank, found.length)}; the tour, as the agent, picks it: it is built into pml and runs in pml's sandbox, offline.`;
}

export async function stepApprove(ctx: TourContext, questions: string[]): Promise<string> {
  ctx.n.say(`The agent calls ${TOOL} on ${SETTINGS_FILE}. This workspace has no .pml.json, so pml's defaults apply: every tool asks the user before its first run.`);
  const before = questions.length;
  const { text } = await call(ctx, wireName("filesystem", "read_file"), { path: SETTINGS_FILE });
  const asked = questions.slice(before);
  check(
    asked.some((q) => q.includes(TOOL)),
    `${TOOL} ran without asking the user first (questions seen: ${asked.length ? asked.join(" | ") : "none"})`,
  );
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch {}
  check(JSON.stringify(settings) === JSON.stringify(SETTINGS), `${TOOL} returned ${JSON.stringify(text.slice(0, 200))}, not the contents of ${SETTINGS_FILE}`);
  ctx.settings = settings;
  ctx.n.say("Once approved it ran, in pml's sandbox, scoped to the workspace, and the agent got the file's text.");
  ctx.n.data({ tool: TOOL, questions: asked, answer: "continue" });
  return `pml asked before running ${TOOL}; after Continue it returned ${SETTINGS_FILE}.`;
}

export async function stepExecute(ctx: TourContext): Promise<string> {
  ctx.n.say(`The agent writes a short program that calls two tools, and sends it to \`execute\` with a name, ${CAPABILITY}:\n${CODE}`);
  const listChangedBefore = ctx.client.notifications.get("notifications/tools/list_changed") ?? 0;
  const { json } = await call(ctx, "execute", {
    code: CODE,
    args: { path: SETTINGS_FILE },
    intent: "read the project's JSON settings file and parse it",
    name: CAPABILITY,
    parameters: { type: "object", properties: { path: { type: "string", description: "the JSON file to read" } }, required: ["path"] },
  });
  ctx.client.meter = undefined; // the first time ends with this answer
  const warnings: string[] = Array.isArray(json?.warnings) ? json.warnings.map(String) : [];
  check(
    json?.capabilityName === CAPABILITY,
    `execute ran but did not save the capability ${CAPABILITY}${warnings.length ? `: ${warnings.join("; ")}` : ` (answer: ${JSON.stringify(json).slice(0, 300)})`}`,
  );
  check(JSON.stringify(json?.result?.settings) === JSON.stringify(SETTINGS), `execute returned ${JSON.stringify(json?.result).slice(0, 200)}, not the settings`);
  ctx.n.say(
    `Every tool call in it succeeded, so pml kept the code as the capability ${CAPABILITY} (${json.capabilityFqdn ?? "no FQDN"}), used tools ${(json.tools_used ?? []).join(", ")}.`,
  );
  await until(() => (ctx.client.notifications.get("notifications/tools/list_changed") ?? 0) > listChangedBefore, 5000);
  const changed = (ctx.client.notifications.get("notifications/tools/list_changed") ?? 0) - listChangedBefore;
  check(changed > 0, "pml sent no notifications/tools/list_changed after saving the capability");
  const tool = wireName("cap", CAPABILITY.replace(":", "__"));
  const list = await ctx.client.request("tools/list", {});
  const listed = (list?.tools ?? []).find((t: any) => t?.name === tool);
  check(listed, `tools/list does not show ${tool} after the capability was saved`);
  ctx.n.say(
    `pml told the client its tool list changed; tools/list now shows ${tool}: "${String(listed.description ?? "").split("\n")[0]}", arguments ${JSON.stringify(listed.inputSchema?.properties ?? {})}.`,
  );
  ctx.n.data({ capability: CAPABILITY, tool, tools_used: json.tools_used, list_changed: changed, listed: true });
  return `the code was saved as ${CAPABILITY} and is now the tool ${tool}.`;
}

export async function stepAgain(ctx: TourContext): Promise<string> {
  ctx.n.say(`Later (another session, another day) the agent gets the same task in other words: "${QUERY_AGAIN}".`);
  const second: Meter = { calls: 0, bytes: 0, approvals: 0 };
  ctx.client.meter = second;
  try {
    const { json, text } = await call(ctx, "discover", { query: QUERY_AGAIN });
    const found = discovered(json, text);
    showRanked(ctx, found, text);
    const hit = locate(found, text, [CAPABILITY, `cap:${CAPABILITY}`], wireName("cap", CAPABILITY.replace(":", "__")));
    check(hit, `discover "${QUERY_AGAIN}" did not list the capability ${CAPABILITY}`);
    const tool = hit.tool;
    ctx.n.say(`The capability is ${rankText(hit.rank, found.length)}. One call does the whole task: ${tool}.`);
    ctx.n.data({ rank: hit.rank });
    const again = await call(ctx, tool, { path: SETTINGS_FILE });
    check(JSON.stringify(again.json?.result?.settings) === JSON.stringify(SETTINGS), `${tool} returned ${again.text.slice(0, 200)}, not the settings`);
  } finally {
    ctx.client.meter = undefined;
  }
  const f = ctx.first;
  const ratio = f.bytes ? Math.round((100 * second.bytes) / f.bytes) : 0;
  ctx.n.say(`The first time (steps 1 to 3): ${f.calls} tool calls, ${f.approvals} questions to the user, ${formatBytes(f.bytes)} of JSON-RPC.`);
  ctx.n.say(`This time: ${second.calls} tool calls, ${second.approvals} questions, ${formatBytes(second.bytes)} (${ratio}% of the bytes).`);
  ctx.n.data({ query: QUERY_AGAIN, first: { ...f }, second: { ...second } });
  check(second.calls < f.calls, `the second time took ${second.calls} tool calls, not fewer than the first time's ${f.calls}`);
  check(second.bytes < f.bytes, `the second time exchanged ${formatBytes(second.bytes)}, not less than the first time's ${formatBytes(f.bytes)}`);
  return `discover found ${CAPABILITY} and one call did the task: ${second.calls} tool calls and ${formatBytes(second.bytes)} against ${f.calls} and ${formatBytes(f.bytes)}.`;
}

export async function stepRename(ctx: TourContext): Promise<string> {
  ctx.n.say(`Names can be better. The agent renames ${CAPABILITY} to ${RENAMED} with dns:rename (through \`call\`, which reaches every tool by id).`);
  const renamed = await call(ctx, "call", { tool: "dns:rename", arguments: { name: CAPABILITY, newName: RENAMED } });
  check(renamed.json?.to === RENAMED || renamed.text.includes(RENAMED), `dns:rename answered ${renamed.text.slice(0, 200)}`);
  const oldTool = wireName("cap", CAPABILITY.replace(":", "__"));
  ctx.n.say(`A client that still has the old name calls ${oldTool}: it keeps working, with a notice.`);
  const old = await call(ctx, oldTool, { path: SETTINGS_FILE });
  const deprecation = String(old.json?.deprecation ?? "");
  check(deprecation.includes(RENAMED), `${oldTool} answered without a deprecation notice naming ${RENAMED}: ${old.text.slice(0, 300)}`);
  ctx.n.say(`Its notice: "${deprecation}"`);
  const history = await call(ctx, "call", { tool: "dns:history", arguments: { name: RENAMED } });
  const versions: any[] = Array.isArray(history.json?.versions) ? history.json.versions : [];
  check(versions.length > 0, `dns:history ${RENAMED} lists no versions: ${history.text.slice(0, 200)}`);
  ctx.n.say(
    `dns:history: ${versions.map((v) => `${v.version} (${v.created_at}, ${v.change_summary})`).join("; ")}. Saving other code under the name adds a version, with its diff.`,
  );
  ctx.n.data({ renamed: CAPABILITY, to: RENAMED, old_name_works: true, deprecation, versions: versions.map((v) => v.version) });
  return `${CAPABILITY} is now ${RENAMED}; the old name still works and says so; history lists ${versions.length} version(s).`;
}

async function until(cond: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}
