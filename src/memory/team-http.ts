// The team registry's HTTP side, for publishing, finding and searching (team.ts): one request
// helper (the key as Bearer, a time limit, no redirects) and the reading of its list answers.
import * as v from "valibot";
import { HttpError, httpRequest, type HttpResponse } from "../http/request.ts";

const TIMEOUT_MS = 5_000;

export class Unreachable extends Error {}

/** One request to the team registry: the key as Bearer, a time limit, no redirects (the key stays put). */
export async function teamFetch(
  team: { url: string; key?: string },
  path: string,
  init: { method?: "GET" | "POST"; body?: string; headers?: Record<string, string>; maxBytes?: number } = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (team.key) headers.authorization = `Bearer ${team.key}`;
  if (init.body) headers["content-type"] = "application/json";
  try {
    return await httpRequest(`${team.url}${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body,
      timeoutMs: TIMEOUT_MS,
      what: "team registry",
      redirects: "refuse",
      ...(init.maxBytes ? { maxBytes: init.maxBytes } : {}),
    });
  } catch (e) {
    if (e instanceof HttpError && (e.kind === "unreachable" || e.kind === "timeout")) throw new Unreachable(e.message);
    throw e;
  }
}

export async function messageOf(res: HttpResponse): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const j = JSON.parse(text);
    if (typeof j?.message === "string") return j.message;
  } catch {}
  return `HTTP ${res.status}`;
}

/** An entry of a list answer; one of another shape is left out, not trusted in part. */
const ListItemSchema = v.looseObject({
  type: v.nullish(v.string()),
  name: v.nullish(v.string()),
  fqdn: v.string(),
  org: v.nullish(v.string()),
  project: v.nullish(v.string()),
  description: v.nullish(v.string()),
  version: v.nullish(v.string()),
  updated_by: v.nullish(v.string()),
});
export type ListItem = v.InferOutput<typeof ListItemSchema>;

/** A list answer of the registry (`viewer`: the caller as its key identifies it; absent:
 * anonymous), its entries that have the shape of one. */
export async function listAnswer(res: HttpResponse): Promise<{ items: ListItem[]; viewer?: string }> {
  const json = (await res.json()) as { items?: unknown; viewer?: { org?: unknown } } | null;
  const items = Array.isArray(json?.items) ? json.items : [];
  const org = json?.viewer?.org;
  return {
    items: items.flatMap((i) => {
      const r = v.safeParse(ListItemSchema, i);
      return r.success ? [r.output] : [];
    }),
    ...(typeof org === "string" ? { viewer: org } : {}),
  };
}

/** A list answer is read this far: it holds a page of short entries, not megabytes. */
export const LIST_MAX_BYTES = 1 << 20;
