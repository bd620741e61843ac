// Requests that child servers send to their client (pml): sampling and elicitation are relayed to
// a connected client that declared the capability; sampling without one goes to the LLM API
// configured in .pml.json (with the user's own key); roots/list is answered with the workspace.
import { pathToFileURL } from "node:url";
import type { Project } from "./project.ts";
import type { Session } from "./session.ts";

const RELAY_TIMEOUT_MS = 10 * 60_000;

export function serverRequestHandler(workspace: string, project: Project, sessions: () => Session[]) {
  const capable = (cap: string) => sessions().findLast((s) => s.client.capabilities[cap] !== undefined);

  return async (ns: string, method: string, params: any): Promise<unknown> => {
    if (method === "roots/list") return { roots: [{ uri: pathToFileURL(workspace).href, name: "workspace" }] };
    if (method === "sampling/createMessage") {
      // Capped always; approved by the client's UI when relayed, else by the user (sampling-approval.ts).
      const { capped, authorizeSampling } = await import("./sampling-approval.ts");
      const config = (await project.get()).config;
      const request = capped(params, config);
      const client = capable("sampling");
      if (client) return relay(client, method, request);
      const target = await authorizeSampling(ns, request, { config, workspace, asker: sessions().findLast((s) => s.supportsFormElicitation()), invalidate: () => project.invalidate() });
      const { createMessageViaApi } = await import("../cloud/sampling.ts");
      return createMessageViaApi(request, { config, workspace }, target);
    }
    if (method === "elicitation/create") {
      const client = capable("elicitation");
      if (client) return relay(client, method, params);
      return { action: "cancel" };
    }
    throw Object.assign(new Error(`pml does not support ${method}`), { code: -32601 });
  };
}

async function relay(session: Session, method: string, params: Record<string, unknown>): Promise<unknown> {
  const res = await session.request(method, params, { timeoutMs: RELAY_TIMEOUT_MS });
  if (res.error) throw Object.assign(new Error(res.error.message), { code: res.error.code, data: res.error.data });
  return res.result;
}
