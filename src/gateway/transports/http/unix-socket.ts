// `pml serve --socket PATH`: the endpoint on a Unix socket that only its owner may connect to
// (mode 0600), so the file system is what keeps other local users out, with no token to pass.
// The socket is bound with umask 077, so there is no moment in which it is open to others.
import { chmodSync, lstatSync, unlinkSync } from "node:fs";
import { connect } from "node:net";
import type { Server } from "bun";
import { UserError } from "../../../errors.ts";

/** Bun.serve on `path`, owner-only from the start. Bun has no idle timeout for sockets; a slow
 * body still gets its 408 from the endpoint, and only the owner can connect. */
export function serveOnSocket(path: string, options: { maxRequestBodySize: number; fetch: (req: Request) => Promise<Response> }): Server<undefined> {
  const umask = process.umask(0o077);
  let server: Server<undefined>;
  try {
    server = Bun.serve({ ...options, unix: path });
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  return server;
}

/** Makes `path` free for a new socket: a socket left by a pml that died is removed; anything else
 * there (a socket someone answers on, a file) is refused with what to do. */
export async function clearStaleSocket(path: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch (e: any) {
    if (e?.code === "ENOENT") return;
    throw e;
  }
  if (!isSocket) throw new UserError(`${path} exists and is not a socket; choose another --socket path.`);
  if (await answers(path)) throw new UserError(`${path} is in use (another pml serve?); stop it or choose another --socket path.`);
  unlinkSync(path);
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", (e: NodeJS.ErrnoException) => resolve(e.code !== "ECONNREFUSED" && e.code !== "ENOENT"));
  });
}
