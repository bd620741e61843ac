// `pml stdio`: newline-delimited JSON-RPC on stdin/stdout. Only JSON-RPC goes to stdout.
import { log } from "../../log.ts";
import { LineSplitter, OVERFLOW, type Message } from "../../mcp/jsonrpc.ts";
import { Gateway } from "../dispatch/server.ts";
import type { ToolHost } from "../dispatch/call.ts";

/**
 * Starts reading stdin at once, before any await: in Bun, bytes that arrive before the first
 * listener is attached can be lost, and the client then reports "Failed to connect".
 */
export function serveStdio(loadHost: () => Promise<ToolHost> = defaultHost): Gateway {
  const gateway = new Gateway(loadHost);
  const session = gateway.openSession("stdio", writeMessage);
  let closing = false;
  /** Messages read and not yet answered: answered before pml exits on stdin EOF. A count, not a
   * set of promises: one `.then` per call rather than a catch, a finally and a set entry. */
  let handling = 0;
  let idle: (() => void) | undefined;
  const handled = () => {
    if (--handling === 0) idle?.();
  };
  const failed = (e: unknown) => {
    log.error("unhandled:", e);
    handled();
  };

  const splitter = new LineSplitter((line) => {
    if (line === OVERFLOW) {
      writeMessage({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: message longer than 64 MiB (discarded up to its newline)" } });
      return;
    }
    let p: ReturnType<Gateway["receiveText"]>;
    try {
      p = gateway.receiveText(session, line);
    } catch (e) {
      log.error("unhandled:", e);
      return;
    }
    if (p === undefined) return;
    handling++;
    if (p instanceof Promise) p.then(handled, failed);
    else p.whenAnswered(handled);
  });

  void readInput(splitter).then(() => {
    splitter.end();
    void drainThenStop();
  });

  // A client may write its last requests and close stdin at once (`printf ... | pml stdio`):
  // every request already read gets its answer, within a bound, before pml exits. Nobody can
  // answer pml's own requests any more (elicitation), so those fail now rather than time out.
  async function drainThenStop(): Promise<void> {
    session.endInput();
    if (handling > 0 && !closing) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        idle = resolve;
        timer = setTimeout(resolve, EOF_DRAIN_MS);
      });
      clearTimeout(timer);
    }
    await stop("stdin closed");
  }
  process.stdout.on("error", () => void stop("stdout closed"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGHUP", () => void stop("SIGHUP"));

  async function stop(why: string): Promise<void> {
    if (closing) return;
    closing = true;
    log.debug(`shutting down (${why})`);
    gateway.disconnect(session);
    const force = setTimeout(() => process.exit(0), 5000);
    try {
      await gateway.shutdown();
    } catch (e) {
      log.error("shutdown:", e);
    }
    clearTimeout(force);
    flushOutput();
    process.exit(0);
  }

  return gateway;
}

const EOF_DRAIN_MS = 5_000;

/** Reads stdin to its end through the native stream's reader: node's Readable on top of it
 * (process.stdin) was several JS layers and an emit per chunk. */
async function readInput(splitter: LineSplitter): Promise<void> {
  const reader = Bun.stdin.stream().getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      splitter.push(value);
    }
  } catch (e) {
    log.debug("stdin:", e);
  }
}

// Messages produced in the same event-loop turn (e.g. the answers to many concurrent calls that
// the server returned in one read) go out in one write: a write per message is a syscall each
// and was the largest single cost of a proxied call. Order is kept; the turn ends before the
// loop waits for I/O again, so nothing is held back.
let pending = "";
let flushScheduled = false;

function writeMessage(msg: Message): void {
  pending += `${JSON.stringify(msg)}\n`;
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushOutput);
  }
}

function flushOutput(): void {
  flushScheduled = false;
  if (!pending) return;
  const out = pending;
  pending = "";
  process.stdout.write(out);
}

async function defaultHost(): Promise<ToolHost> {
  const { createToolHost } = await import("../tool-host.ts");
  return createToolHost();
}
