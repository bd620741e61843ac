// Requests that child servers send to their client (pml). Each goes to the client whose call the
// server was serving when it asked, and to no other: sampling and elicitation are relayed to that
// client if it declared the capability (a legacy session gets a request on its own stream; a
// 2026-07-28 request gets an input_required result). When that is not possible, sampling goes to
// the LLM API configured in .pml.json (with the user's own key, once the user approved) and
// elicitation is cancelled. roots/list is answered with the workspace.
import { pathToFileURL } from "node:url";
import { log } from "../../log.ts";
import { visible } from "../../visible-text.ts";
import type { Project } from "../../policy/project.ts";
import { NOT_RELAYED, sessionOf } from "../../mcp/session.ts";
import type { CallOrigin } from "../../mcp/tool-result.ts";

export function serverRequestHandler(workspace: string, project: Project) {
  return async (ns: string, method: string, params: any, origins: unknown[]): Promise<unknown> => {
    if (method === "roots/list") return { roots: [{ uri: pathToFileURL(workspace).href, name: "workspace" }] };
    if (method !== "sampling/createMessage" && method !== "elicitation/create") throw Object.assign(new Error(`pml does not support ${method}`), { code: -32601 });
    // Calls of several clients in flight on one server: pml cannot tell whose this is, and
    // guessing would show one client's prompt to another.
    if (origins.length > 1) log.debug(`${ns}: ${method} while serving ${origins.length} clients; not relayed to any`);
    const origin = origins.length === 1 ? (origins[0] as CallOrigin) : undefined;
    if (method === "elicitation/create") {
      // The client shows the server's message to the user: escaped as pml's own questions are, and
      // saying whose question it is, so a server's text cannot pass for pml's own approval form.
      const shown = typeof params?.message === "string" ? { ...params, message: `Tool server "${ns}" asks: ${visible(params.message)}` } : (params ?? {});
      const answer = origin ? await origin.relay(method, shown) : NOT_RELAYED;
      return answer === NOT_RELAYED ? { action: "cancel" } : withDefaults(params, answer);
    }
    // Capped always; approved by the client's UI when relayed, else by the user (sampling-approval.ts).
    const { capped, authorizeSampling } = await import("../../policy/sampling-approval.ts");
    const config = await project.config();
    const request = capped(params, config);
    if (origin) {
      const answer = await origin.relay(method, request);
      if (answer !== NOT_RELAYED) return answer;
    }
    const target = await authorizeSampling(ns, request, { config, workspace, asker: sessionOf({ origin }), invalidate: () => project.invalidate() });
    const { createMessageViaApi } = await import("../../cloud/sampling.ts");
    return createMessageViaApi(request, { config, workspace }, target);
  };
}

/**
 * An accepted form answers every field that has a default (SEP-1034): a client that showed the
 * form without pre-filling them sends them back missing, and the server would take that as
 * "not given".
 */
export function withDefaults(params: any, answer: unknown): unknown {
  const a = answer as { action?: unknown; content?: unknown } | null;
  const properties = params?.requestedSchema?.properties;
  if (a?.action !== "accept" || params?.mode === "url" || !properties || typeof properties !== "object") return answer;
  const given = a.content && typeof a.content === "object" && !Array.isArray(a.content) ? (a.content as Record<string, unknown>) : {};
  const content = { ...given };
  for (const [name, schema] of Object.entries(properties as Record<string, { default?: unknown }>))
    if (!(name in content) && schema && typeof schema === "object" && schema.default !== undefined) content[name] = schema.default;
  return { ...a, content };
}
