// The page's one way to the server: same-origin fetches (the HttpOnly cookie goes along), and for
// actions the CSRF token the server gave this page.
let csrf: string | undefined;

export class ApiError extends Error {}

async function session(): Promise<string> {
  if (csrf) return csrf;
  const s = await getJson<{ csrf: string }>("/api/session");
  csrf = s.csrf;
  return csrf;
}

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
