// The page's one way to the server: same-origin fetches (the HttpOnly cookie goes along), and for
// actions the CSRF token the server gave this page.
export class ApiError extends Error {}

// Asked once, as the page loads: an action is then its one POST (not a GET of the token first,
// nor one per click while the first is on its way).
let csrf: Promise<string> | undefined;
function session(): Promise<string> {
  csrf ??= getJson<{ csrf: string }>("/api/session").then(
    (s) => s.csrf,
    (e: Error) => {
      csrf = undefined; // asked again by the next action
      throw e;
    },
  );
  return csrf;
}
session().catch(() => {}); // a failure shows when an action needs it

export async function getJson<T>(path: string, params: Record<string, string | undefined> = {}): Promise<T> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  const res = await fetch(q.size ? `${path}?${q}` : path, { credentials: "same-origin" });
  return answer<T>(res);
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-pml-csrf": await session() },
    body: JSON.stringify(body),
  });
  return answer<T>(res);
}

async function answer<T>(res: Response): Promise<T> {
  const type = res.headers.get("content-type") ?? "";
  const value = type.includes("json") ? await res.json() : { error: await res.text() };
  if (!res.ok) throw new ApiError(String(value?.error ?? `HTTP ${res.status}`));
  return value as T;
}
