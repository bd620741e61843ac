// The in-run baseline of bench/proxy.ts: the least a stdio MCP proxy can do. It starts the
// server given on its command line, reads newline-delimited JSON-RPC on stdin, parses each
// message, gives requests an id of its own (so several clients could share the server),
// forwards them, and maps the answers back; everything else passes through. Lines of one
// event-loop turn go out in one write, as pml does. `bun bench/bare-proxy.ts [--detached] <cmd> [args...]`
// `--detached`: the server in a session of its own (setsid), as pml's pool starts every server
// (a process group to end what it started). On Linux with autogroups that also puts the server
// in a scheduling group of its own, which changes how a busy machine interleaves proxy and server.
const argv = process.argv.slice(2);
const detached = argv[0] === "--detached";
const [cmd, ...args] = detached ? argv.slice(1) : argv;
if (!cmd) throw new Error("usage: bun bench/bare-proxy.ts [--detached] <server command> [args...]");
const child = Bun.spawn([cmd, ...args], { stdin: "pipe", stdout: "pipe", stderr: "inherit", env: process.env, detached });

const ids = new Map<number, unknown>();
let nextId = 1;
let toChild = "";
let toClient = "";
let scheduled = false;
const flush = () => {
  scheduled = false;
  if (toChild) {
    child.stdin.write(toChild);
    child.stdin.flush();
    toChild = "";
  }
  if (toClient) {
    process.stdout.write(toClient);
    toClient = "";
  }
};
const later = () => {
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
};

function lines(onLine: (line: string) => void) {
  let buf = "";
  return (text: string) => {
    buf += text;
    let nl: number;
    while ((nl = buf.indexOf("\n")) !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim()) onLine(line);
    }
  };
}

const fromClient = lines((line) => {
  const msg = JSON.parse(line);
  if (msg.method !== undefined && msg.id !== undefined) {
    const id = nextId++;
    ids.set(id, msg.id);
    msg.id = id;
  }
  toChild += `${JSON.stringify(msg)}\n`;
  later();
});
const fromChild = lines((line) => {
  const msg = JSON.parse(line);
  if (msg.method === undefined && ids.has(msg.id)) {
    const original = ids.get(msg.id);
    ids.delete(msg.id);
    msg.id = original;
  }
  toClient += `${JSON.stringify(msg)}\n`;
  later();
});

process.stdin.on("data", (chunk: Buffer) => fromClient(chunk.toString("utf8")));
process.stdin.on("end", () => {
  child.stdin.end();
  void child.exited.then(() => process.exit(0));
});
const decoder = new TextDecoder();
for await (const chunk of child.stdout) fromChild(decoder.decode(chunk, { stream: true }));
