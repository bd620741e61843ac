// tools/list pages (both protocol revisions take `cursor` and answer `nextCursor`). The list is
// rebuilt for each page in the same deterministic order (meta tools, namespaces, capabilities), so
// the cursor need only say where the next page starts; it is opaque to clients all the same.
import { ErrorCode, ProtocolError } from "../../mcp/jsonrpc.ts";

/** Tools per page: the default list (meta tools, built-in modules, 20 capabilities) fits in one
 * page, since a client that ignores nextCursor would otherwise never see the rest. */
export const TOOLS_PAGE_SIZE = 100;

const PREFIX = "tools:";

export function pageOf<T>(items: readonly T[], cursor: unknown, size = TOOLS_PAGE_SIZE): { items: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : offsetOf(cursor);
  const end = start + size;
  return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: Buffer.from(`${PREFIX}${end}`).toString("base64url") } : {}) };
}

/** A cursor pml did not give (or one of another list): invalid params, as the spec says. A page
 * past the end of a list that shrank is not an error: it is empty. */
function offsetOf(cursor: unknown): number {
  const text = typeof cursor === "string" && /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString() : "";
  const m = /^tools:(\d{1,9})$/.exec(text);
  if (!m) throw new ProtocolError(ErrorCode.InvalidParams, 'Invalid cursor: pass the "nextCursor" of the previous tools/list answer unchanged, or no cursor for the first page.');
  return Number(m[1]);
}
